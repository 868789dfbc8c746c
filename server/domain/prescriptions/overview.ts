/**
 * The admin tool's reads of prescriptions: the organisation's list (status filter, search by patient
 * or order) and one prescription with everything an operator checks — patient, doctor, source,
 * lines with what of each is redeemed and by which orders, history with who made each change, the
 * order — and its PDF.
 */
import { database, type Prisma } from "@/server/db/client";
import { NotFoundError } from "@/server/domain/errors";
import { pageArgs, type Page } from "@/server/domain/paging";
import { containsInsensitive } from "@/server/domain/search";
import { prescriptionStorage, readVerified } from "@/server/storage/prescription-files";
import { redemptionsOf } from "./redemption";
import { isSignedStatus, storedSpellings, type PrescriptionStatus } from "./statuses";

export type PrescriptionListFilters = {
  status?: PrescriptionStatus;
  /** A case-insensitive substring of the patient's name or email, or of the order's name or external id. */
  search?: string;
};

/** The organisation's live prescriptions, newest first. */
export async function listPrescriptions(organisationId: string, filters: PrescriptionListFilters, page: Page) {
  const db = await database();
  const term = filters.search?.trim();
  const where: Prisma.PrescriptionWhereInput = {
    organisationId,
    deletedAt: null,
    ...(filters.status ? { status: { in: storedSpellings([filters.status]) } } : {}),
    ...(term
      ? {
          OR: [
            { patient: { displayName: containsInsensitive(term) } },
            { patient: { email: containsInsensitive(term) } },
            { order: { name: containsInsensitive(term) } },
            { order: { externalId: containsInsensitive(term) } },
          ],
        }
      : {}),
  };
  const [items, total] = await Promise.all([
    db.prescription.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      select: {
        id: true,
        status: true,
        source: true,
        createdAt: true,
        signedAt: true,
        patient: { select: { id: true, displayName: true } },
        doctor: { select: { id: true, displayName: true } },
        order: { select: { id: true, name: true } },
        _count: { select: { lines: true } },
      },
      ...pageArgs(page),
    }),
    db.prescription.count({ where }),
  ]);
  return { items, total };
}

export type PrescriptionListEntry = Awaited<ReturnType<typeof listPrescriptions>>["items"][number];

/** Who made a history entry: a portal user or an API key by name, or the platform. */
export type PrescriptionHistoryActor = { type: "USER" | "API_KEY" | "SYSTEM"; id: string | null; name: string | null };

/** One live prescription of the organisation as the admin tool shows it; another organisation's is not found. */
export async function getPrescriptionOverview(organisationId: string, prescriptionId: string) {
  const db = await database();
  const prescription = await db.prescription.findFirst({
    where: { id: prescriptionId, organisationId, deletedAt: null },
    select: {
      id: true,
      status: true,
      source: true,
      renderedFileKey: true,
      signedFileKey: true,
      signedAt: true,
      createdAt: true,
      updatedAt: true,
      patient: { select: { id: true, displayName: true, firstName: true, lastName: true, email: true, dateOfBirth: true } },
      doctor: { select: { id: true, displayName: true } },
      order: { select: { id: true, name: true, status: true } },
      lines: {
        orderBy: { id: "asc" },
        select: {
          id: true,
          quantity: true,
          dosage: true,
          anamnesisId: true,
          orderItem: { select: { anamnesisId: true } },
          sku: { select: { id: true, displayName: true, pzn: true } },
        },
      },
      history: {
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        select: { id: true, fromStatus: true, toStatus: true, note: true, actorType: true, actorApiKeyId: true, actorUserId: true, createdAt: true },
      },
    },
  });
  if (!prescription) throw new NotFoundError();
  const keyIds = [...new Set(prescription.history.flatMap((h) => (h.actorApiKeyId ? [h.actorApiKeyId] : [])))];
  const userIds = [...new Set(prescription.history.flatMap((h) => (h.actorUserId ? [h.actorUserId] : [])))];
  const [keys, users] = await Promise.all([
    keyIds.length ? db.apiKey.findMany({ where: { id: { in: keyIds } }, select: { id: true, displayName: true } }) : [],
    userIds.length ? db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, displayName: true } }) : [],
  ]);
  const names = new Map([...keys, ...users].map((x) => [x.id, x.displayName]));
  const { history, renderedFileKey, signedFileKey, lines, ...rest } = prescription;
  const redemption = (await redemptionsOf(db, [prescription.id])).get(prescription.id);
  const redeemed = new Map(redemption?.lines.map((l) => [l.lineId, l]));
  const redeemingOrders = redemption?.redeemedBy.length
    ? await db.order.findMany({ where: { id: { in: redemption.redeemedBy } }, select: { id: true, name: true } })
    : [];
  return {
    ...rest,
    lines: lines.map((line) => ({ ...line, redeemed: redeemed.get(line.id)?.redeemed ?? 0, remaining: redeemed.get(line.id)?.remaining ?? line.quantity })),
    /** The orders whose live items redeem it, the earliest first. */
    redeemedBy: (redemption?.redeemedBy ?? []).flatMap((id) => redeemingOrders.filter((o) => o.id === id)),
    rendered: renderedFileKey !== null && (await prescriptionStorage().exists(renderedFileKey)),
    hasSignedFile: signedFileKey !== null && isSignedStatus(prescription.status),
    history: history.map((h) => {
      const actorId = h.actorApiKeyId ?? h.actorUserId;
      const actor: PrescriptionHistoryActor = { type: h.actorType, id: actorId, name: actorId ? (names.get(actorId) ?? null) : null };
      return { id: h.id, fromStatus: h.fromStatus, toStatus: h.toStatus, note: h.note, actor, createdAt: h.createdAt };
    }),
  };
}

export type PrescriptionOverview = Awaited<ReturnType<typeof getPrescriptionOverview>>;

/**
 * The prescription's PDF for the admin tool: the signed copy once signed (checked against its
 * checksum), else the rendered one; null when there is neither yet.
 */
export async function readPrescriptionPdf(organisationId: string, prescriptionId: string) {
  const db = await database();
  const p = await db.prescription.findFirst({
    where: { id: prescriptionId, organisationId, deletedAt: null },
    select: { id: true, status: true, renderedFileKey: true, signedFileKey: true, signedFileSha256: true },
  });
  if (!p) throw new NotFoundError();
  if (p.signedFileKey && p.signedFileSha256 && isSignedStatus(p.status)) {
    return { kind: "signed" as const, filename: `prescription-${p.id}-signed.pdf`, content: await readVerified(p.signedFileKey, p.signedFileSha256) };
  }
  const storage = prescriptionStorage();
  if (p.renderedFileKey && (await storage.exists(p.renderedFileKey))) {
    return { kind: "rendered" as const, filename: `prescription-${p.id}.pdf`, content: await storage.get(p.renderedFileKey) };
  }
  return null;
}
