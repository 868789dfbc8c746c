import { Document, Page, StyleSheet, Text, View, renderToBuffer } from "@react-pdf/renderer";
import { database } from "@/server/db/client";
import { log } from "@/server/log";
import { isSignedStatus } from "./statuses";
import { prescriptionStorage, renderedKey } from "@/server/storage/prescription-files";

/** What the PDF shows, as text (built from the database by prescriptionDocumentProps). */
export type PrescriptionDocumentProps = {
  uid: string;
  /** Issue date, YYYY-MM-DD (Europe/Berlin). */
  date: string;
  doctorName: string;
  patientName: string;
  patientDateOfBirth: string;
  lines: { name: string; pzn: string; dosage: string; quantity: number }[];
  /** Written into the PDF's metadata; the prescription's creation time, so equal data gives equal bytes. */
  createdAt: Date;
};

type PrescriptionForRendering = {
  id: string;
  createdAt: Date;
  doctor: { displayName: string } | null;
  patient: { displayName: string; firstName: string | null; lastName: string | null; dateOfBirth: Date | null };
  lines: { quantity: number; dosage: string | null; sku: { displayName: string; prescriptionName: string | null; pzn: string | null; dosage: string | null } }[];
};

const NONE = "—";
const berlinDate = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Berlin", year: "numeric", month: "2-digit", day: "2-digit" });

export function prescriptionDocumentProps(p: PrescriptionForRendering): PrescriptionDocumentProps {
  const fullName = [p.patient.firstName, p.patient.lastName].filter((s) => s?.trim()).join(" ");
  return {
    uid: p.id,
    date: berlinDate.format(p.createdAt),
    doctorName: p.doctor?.displayName || NONE,
    patientName: fullName || p.patient.displayName || NONE,
    // A @db.Date column arrives as midnight UTC.
    patientDateOfBirth: p.patient.dateOfBirth ? p.patient.dateOfBirth.toISOString().slice(0, 10) : NONE,
    lines: p.lines
      .map((line) => ({
        name: line.sku.prescriptionName || line.sku.displayName,
        pzn: line.sku.pzn || NONE,
        dosage: line.dosage || line.sku.dosage || NONE,
        quantity: line.quantity,
      }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.pzn.localeCompare(b.pzn)),
    createdAt: p.createdAt,
  };
}

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

const styles = StyleSheet.create({
  page: { paddingTop: 48, paddingBottom: 56, paddingHorizontal: 48, fontFamily: "Helvetica", fontSize: 10, color: "#111111" },
  title: { fontFamily: "Helvetica-Bold", fontSize: 20, marginBottom: 18 },
  field: { flexDirection: "row", marginBottom: 4 },
  label: { width: 110, color: "#555555" },
  value: { flex: 1 },
  table: { marginTop: 22 },
  row: { flexDirection: "row", borderBottomWidth: 0.5, borderBottomColor: "#999999", paddingVertical: 5 },
  head: { fontFamily: "Helvetica-Bold", borderBottomWidth: 1, borderBottomColor: "#111111" },
  name: { width: "46%", paddingRight: 8 },
  pzn: { width: "16%", paddingRight: 8 },
  dosage: { width: "26%", paddingRight: 8 },
  quantity: { width: "12%", textAlign: "right" },
  footer: { position: "absolute", bottom: 28, left: 48, right: 48, fontSize: 8, color: "#555555", flexDirection: "row", justifyContent: "space-between" },
});

function Field({ label, value }: { label: string; value: string }) {
  return (
    <View style={styles.field}>
      <Text style={styles.label}>{label}</Text>
      <Text style={styles.value}>{toWinAnsi(value)}</Text>
    </View>
  );
}

export function PrescriptionDocument(props: PrescriptionDocumentProps) {
  return (
    <Document title={`Prescription ${props.uid}`} creator="rx-fulfilment" producer="rx-fulfilment" creationDate={props.createdAt} language="en">
      <Page size="A4" style={styles.page}>
        <Text style={styles.title}>Prescription</Text>
        <Field label="UID" value={props.uid} />
        <Field label="Date" value={props.date} />
        <Field label="Doctor" value={props.doctorName} />
        <Field label="Patient" value={props.patientName} />
        <Field label="Date of birth" value={props.patientDateOfBirth} />
        <View style={styles.table}>
          <View style={[styles.row, styles.head]} fixed>
            <Text style={styles.name}>Product</Text>
            <Text style={styles.pzn}>PZN</Text>
            <Text style={styles.dosage}>Dosage</Text>
            <Text style={styles.quantity}>Quantity</Text>
          </View>
          {props.lines.map((line, i) => (
            <View key={i} style={styles.row} wrap={false}>
              <Text style={styles.name}>{toWinAnsi(line.name)}</Text>
              <Text style={styles.pzn}>{toWinAnsi(line.pzn)}</Text>
              <Text style={styles.dosage}>{toWinAnsi(line.dosage)}</Text>
              <Text style={styles.quantity}>{String(line.quantity)}</Text>
            </View>
          ))}
        </View>
        <View style={styles.footer} fixed>
          <Text>{props.uid}</Text>
          <Text render={({ pageNumber, totalPages }) => `Page ${pageNumber} of ${totalPages}`} />
        </View>
      </Page>
    </Document>
  );
}

export function renderPrescriptionDocument(props: PrescriptionDocumentProps): Promise<Buffer> {
  return renderToBuffer(<PrescriptionDocument {...props} />);
}

/**
 * The prescription.render task: renders the prescription's PDF and stores it under
 * rendered/<uid>.pdf. Skips a deleted or signed prescription (a signed one is never rendered
 * again). Idempotent: equal data renders to equal bytes, and a repeat replaces the file with itself.
 * The status is checked again under the prescription's row lock before the file is replaced, so a
 * rendered file never changes once the prescription is signed (signing copies it under that lock).
 */
export async function renderPrescriptionPdf(prescriptionId: string): Promise<void> {
  const db = await database();
  const prescription = await db.prescription.findUnique({
    where: { id: prescriptionId },
    include: {
      doctor: { select: { displayName: true } },
      patient: { select: { displayName: true, firstName: true, lastName: true, dateOfBirth: true } },
      lines: {
        select: { quantity: true, dosage: true, sku: { select: { displayName: true, prescriptionName: true, pzn: true, dosage: true } } },
      },
    },
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
