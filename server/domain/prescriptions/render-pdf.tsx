import { Document, Font, Page, Path, Rect, StyleSheet, Svg, Text, View, renderToBuffer } from "@react-pdf/renderer";
import QRCode from "qrcode";
import { database } from "@/server/db/client";
import { log } from "@/server/log";
import { prescriptionStorage, renderedKey } from "@/server/storage/prescription-files";
import { prescriptionDocumentProps, prescriptionDocumentSelect, type PrescriptionDocumentProps } from "./document";
import { DOCUMENT_WORDS } from "./document-words";
import { isSignedStatus } from "./statuses";


// Windows-1252 above 0x7F: what the built-in Helvetica can show besides ASCII and Latin-1.
const WIN_ANSI_EXTRA = new Set("€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ");
const FOLD: Record<string, string> = { Ł: "L", ł: "l", Đ: "D", đ: "d", Ħ: "H", ħ: "h", ı: "i", Ŀ: "L", ŀ: "l", Ŧ: "T", ŧ: "t" };
const showable = (c: string) => {
  const code = c.codePointAt(0)!;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.has(c);
};

/**
 * Text for the built-in Helvetica, which only has Windows-1252 glyphs: other letters lose their
 * accents (Ż → Z, ł → l), anything else becomes '?'. Embedding a Unicode font would lift this.
 */
export function toWinAnsi(text: string): string {
  let out = "";
  for (const c of text.replace(/\s/g, " ")) {
    if (showable(c)) out += c;
    else {
      const folded = FOLD[c] ?? c.normalize("NFD").replace(/\p{M}/gu, "");
      out += folded && [...folded].every(showable) ? folded : "?";
    }
  }
  return out;
}

/**
 * Where the QR code of the UID sits on the first page (points from the top right corner of the A4
 * page) and how large it is with its quiet zone of 4 modules: the test reads it back from the image.
 */
export const QR_CODE_LAYOUT = { top: 40, right: 48, size: 96, quietZone: 4, errorCorrectionLevel: "M" } as const;

/** The QR code's modules (the UID as text, byte mode), dark runs as one SVG path in module units. */
export function qrCodePath(uid: string): { modules: number; path: string } {
  const { modules } = QRCode.create(uid, { errorCorrectionLevel: QR_CODE_LAYOUT.errorCorrectionLevel });
  const q = QR_CODE_LAYOUT.quietZone;
  let path = "";
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; ) {
      if (!modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < modules.size && modules.get(row, col)) col++;
      path += `M${start + q} ${row + q}h${col - start}v1h-${col - start}z`;
    }
  }
  return { modules: modules.size + 2 * q, path };
}

// Words break at spaces only: a pharmacist reads names and numbers whole ("Vertrauensdiensteanbieter", a PZN).
Font.registerHyphenationCallback((word) => [word]);

const INK = "#111111";
const MUTED = "#555555";
const RULE = "#c8c8c8";

const styles = StyleSheet.create({
  page: { paddingTop: QR_CODE_LAYOUT.top, paddingBottom: 56, paddingHorizontal: QR_CODE_LAYOUT.right, fontFamily: "Helvetica", fontSize: 9.5, color: INK },
  header: { flexDirection: "row", marginBottom: 12 },
  headerText: { flex: 1, paddingTop: 8, paddingRight: 12 },
  title: { fontFamily: "Helvetica-Bold", fontSize: 22, marginBottom: 8 },
  uidLine: { flexDirection: "row", fontSize: 9 },
  muted: { color: MUTED },
  qr: { width: QR_CODE_LAYOUT.size, alignItems: "center" },
  qrCaption: { fontSize: 6.5, color: MUTED, textAlign: "center", marginTop: 1 },
  columns: { flexDirection: "row", marginBottom: 12 },
  // No lineHeight on the page: it keeps @react-pdf from drawing the fixed footer.
  box: { flex: 1, borderWidth: 0.75, borderColor: RULE, borderRadius: 3, padding: 10 },
  gap: { width: 12 },
  label: { fontFamily: "Helvetica-Bold", fontSize: 7.5, color: MUTED, textTransform: "uppercase", letterSpacing: 0.6, marginBottom: 5 },
  name: { fontFamily: "Helvetica-Bold", fontSize: 11.5, marginBottom: 3 },
  line: { marginBottom: 2 },
  dates: { flexDirection: "row", marginBottom: 16 },
  dateBox: { flex: 1, flexDirection: "row", borderWidth: 0.75, borderColor: RULE, borderRadius: 3, paddingVertical: 6, paddingHorizontal: 10 },
  dateLabel: { color: MUTED, width: 80 },
  dateValue: { fontFamily: "Helvetica-Bold", flex: 1 },
  sectionTitle: { fontFamily: "Helvetica-Bold", fontSize: 12, marginBottom: 4 },
  row: { flexDirection: "row", borderBottomWidth: 0.5, borderBottomColor: RULE, paddingVertical: 6 },
  head: { fontFamily: "Helvetica-Bold", fontSize: 8, color: MUTED, borderBottomWidth: 1, borderBottomColor: INK, paddingVertical: 4 },
  position: { width: "7%" },
  medicine: { width: "59%", paddingRight: 8 },
  pzn: { width: "19%", paddingRight: 8 },
  quantity: { width: "15%", textAlign: "right" },
  medicineName: { fontFamily: "Helvetica-Bold" },
  details: { color: MUTED, fontSize: 8.5, marginTop: 2 },
  dosage: { marginTop: 4, flexDirection: "row" },
  dosageLabel: { fontFamily: "Helvetica-Bold", marginRight: 4 },
  signature: { marginTop: 18, borderWidth: 1, borderRadius: 3, padding: 10 },
  signed: { borderColor: "#2f6f3e" },
  unsigned: { borderColor: "#b42318" },
  unsignedText: { fontFamily: "Helvetica-Bold", color: "#b42318", fontSize: 11 },
  signedText: { fontFamily: "Helvetica-Bold", color: "#1f4d2b" },
  footer: { position: "absolute", bottom: 26, left: 48, right: 48, fontSize: 7.5, color: MUTED, flexDirection: "row", justifyContent: "space-between", borderTopWidth: 0.5, borderTopColor: RULE, paddingTop: 4 },
});

const t = (value: string) => toWinAnsi(value);

function Lines({ lines }: { lines: (string | null)[] }) {
  return (
    <>
      {lines.filter((line): line is string => Boolean(line)).map((line, i) => (
        <Text key={i} style={styles.line}>
          {t(line)}
        </Text>
      ))}
    </>
  );
}

function QrCode({ uid, caption }: { uid: string; caption: string }) {
  const { modules, path } = qrCodePath(uid);
  return (
    <View style={styles.qr}>
      <Svg width={QR_CODE_LAYOUT.size} height={QR_CODE_LAYOUT.size} viewBox={`0 0 ${modules} ${modules}`}>
        <Rect x={0} y={0} width={modules} height={modules} fill="#ffffff" />
        <Path d={path} fill="#000000" />
      </Svg>
      <Text style={styles.qrCaption}>{t(caption)}</Text>
    </View>
  );
}

export function PrescriptionDocument(props: PrescriptionDocumentProps) {
  const words = DOCUMENT_WORDS[props.language];
  const prescriber = props.prescriber;
  return (
    <Document
      title={`${words.title} ${props.uid}`}
      creator="rx-fulfilment"
      producer="rx-fulfilment"
      creationDate={props.createdAt}
      modificationDate={props.createdAt}
      language={props.language}
    >
      <Page size="A4" style={styles.page}>
        <View style={styles.header}>
          <View style={styles.headerText}>
            <Text style={styles.title}>{t(words.title)}</Text>
            <View style={styles.uidLine}>
              <Text style={styles.muted}>{t(`${words.uid}: `)}</Text>
              <Text>{props.uid}</Text>
            </View>
          </View>
          <QrCode uid={props.uid} caption={words.scanHint} />
        </View>

        <View style={styles.columns}>
          <View style={styles.box}>
            <Text style={styles.label}>{t(words.prescriber)}</Text>
            {prescriber ? (
              <>
                <Text style={styles.name}>{t(prescriber.name)}</Text>
                <Lines lines={[prescriber.title, prescriber.practiceName, ...prescriber.addressLines]} />
                <Lines
                  lines={[
                    prescriber.phone ? `${words.phone} ${prescriber.phone}` : null,
                    prescriber.email ? `${words.email} ${prescriber.email}` : null,
                    prescriber.identification,
                  ]}
                />
              </>
            ) : (
              <Text>{words.none}</Text>
            )}
          </View>
          <View style={styles.gap} />
          <View style={styles.box}>
            <Text style={styles.label}>{t(words.patient)}</Text>
            <Text style={styles.name}>{t(props.patient.name)}</Text>
            <Text style={styles.line}>{t(`${words.bornOn} ${props.patient.dateOfBirth ?? words.none}`)}</Text>
            <Lines lines={props.patient.addressLines} />
          </View>
        </View>

        <View style={styles.dates}>
          <View style={styles.dateBox}>
            <Text style={styles.dateLabel}>{t(words.issuedOn)}</Text>
            <Text style={styles.dateValue}>{t(props.issuedOn ?? words.issuedOnSigning)}</Text>
          </View>
          <View style={styles.gap} />
          <View style={styles.dateBox}>
            <Text style={styles.dateLabel}>{t(words.validUntil)}</Text>
            <Text style={styles.dateValue}>{t(props.validUntil ?? words.validForThreeMonths)}</Text>
          </View>
        </View>

        <Text style={styles.sectionTitle}>{t(words.items)}</Text>
        <View>
          <View style={[styles.row, styles.head]} fixed>
            <Text style={styles.position}>{t(words.position)}</Text>
            <Text style={styles.medicine}>{t(words.medicine)}</Text>
            <Text style={styles.pzn}>{t(words.pzn)}</Text>
            <Text style={styles.quantity}>{t(words.quantity)}</Text>
          </View>
          {props.items.map((item) => (
            <View key={item.position} style={styles.row} wrap={false}>
              <Text style={styles.position}>{String(item.position)}</Text>
              <View style={styles.medicine}>
                <Text style={styles.medicineName}>{t(item.name)}</Text>
                {item.details ? <Text style={styles.details}>{t(item.details)}</Text> : null}
                <View style={styles.dosage}>
                  <Text style={styles.dosageLabel}>{t(`${words.dosage}:`)}</Text>
                  <Text style={{ flex: 1 }}>{t(item.dosageInstructions ?? words.noDosage)}</Text>
                </View>
              </View>
              <Text style={styles.pzn}>{t(item.pzn ?? words.none)}</Text>
              <Text style={styles.quantity}>{String(item.quantity)}</Text>
            </View>
          ))}
        </View>

        <View style={[styles.signature, props.signature.signed ? styles.signed : styles.unsigned]} wrap={false}>
          <Text style={styles.label}>{t(words.signature)}</Text>
          <Text style={props.signature.signed ? styles.signedText : styles.unsignedText}>{t(props.signature.text)}</Text>
          {props.signature.signed ? null : <Text style={[styles.muted, { marginTop: 3 }]}>{t(words.notSignedHint)}</Text>}
        </View>

        <View style={styles.footer} fixed>
          <Text>{t(`${words.title} · ${words.uid} ${props.uid}`)}</Text>
          <Text render={({ pageNumber, totalPages }) => t(words.page(pageNumber, totalPages))} />
        </View>
      </Page>
    </Document>
  );
}

export function renderPrescriptionDocument(props: PrescriptionDocumentProps): Promise<Buffer> {
  return renderToBuffer(<PrescriptionDocument {...props} />);
}

/**
 * The prescription.render task: renders the prescription's PDF (not yet signed) and stores it under
 * rendered/<uid>.pdf. Skips a deleted or signed prescription (a signed one is never rendered
 * again). Idempotent: equal data renders to equal bytes, and a repeat replaces the file with itself.
 * The status is checked again under the prescription's row lock before the file is replaced, so a
 * rendered file never changes once the prescription is signed (signing renders its own copy).
 */
export async function renderPrescriptionPdf(prescriptionId: string): Promise<void> {
  const db = await database();
  const prescription = await db.prescription.findUnique({
    where: { id: prescriptionId },
    select: { ...prescriptionDocumentSelect, status: true, deletedAt: true },
  });
  if (!renderable(prescriptionId, prescription)) return;
  const pdf = await renderPrescriptionDocument(prescriptionDocumentProps(prescription));
  const key = renderedKey(prescription.id);
  await db.$transaction(async (tx) => {
    const [current] = await tx.$queryRaw<{ status: string; deletedAt: Date | null }[]>`
      SELECT "status", "deletedAt" FROM "Prescription" WHERE "id" = ${prescription.id} FOR UPDATE`;
    if (!renderable(prescriptionId, current)) return;
    await prescriptionStorage().put(key, pdf);
    await tx.prescription.update({ where: { id: prescription.id }, data: { renderedFileKey: key } });
  });
}

function renderable<T extends { status: string; deletedAt: Date | null }>(prescriptionId: string, p: T | null | undefined): p is T {
  if (!p || p.deletedAt) {
    log.info("prescription render skipped: the prescription does not exist (any more)", { prescriptionId });
    return false;
  }
  if (isSignedStatus(p.status)) {
    log.info("prescription render skipped: the prescription is signed", { prescriptionId, status: p.status });
    return false;
  }
  return true;
}
