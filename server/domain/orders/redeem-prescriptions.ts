import { createHash, randomUUID } from "node:crypto";
import { errorText, type ErrorText } from "@/i18n/error-text";
import type { RawTx } from "@/server/db/client";
import { FieldErrorCollector, UnprocessableError, type FieldErrors } from "@/server/domain/errors";
import {
  lockForRedemption,
  lockSignedPdf,
  prescriptionsBySignedPdf,
  redemptionsOf,
  skuRedemption,
  type PrescriptionRedemption,
} from "@/server/domain/prescriptions/redemption";
import { isSignedStatus } from "@/server/domain/prescriptions/statuses";
import type { ValidatedPdf } from "./inline-prescriptions";
import type { FulfillmentIntake } from "./intake";

/**
 * Where an inline PDF (path (d)) of a fulfillment goes: a prescription recorded by this intake
 * (`record`: the first time the PDF is seen; a second entry of the same PDF in the intake adds its
 * items as lines to the same one), or the prescription the organisation already has for it, which
 * the items then redeem as path (c) would (`existing`: no new row, no new lines).
 */
export type InlinePlan = { prescriptionId: string; record: boolean; existing: boolean };

/** Per fulfillment (by index): the plan of each inline PDF by its `id`. */
export type InlinePlans = Map<string, InlinePlan>[];

type Claim = {
  prescriptionId: string;
  skuId: string;
  quantity: number;
  /** The item's field for its messages: prescription_uid (path (c)) or prescription_reference (a known PDF). */
  field: (string | number)[];
  where: string;
  /** A known PDF (path (d)): its pdf_base64 field, for the messages about the PDF as a whole. */
  pdf: { field: (string | number)[]; where: string } | null;
};

/**
 * A prescription is redeemed once, for its patient, up to its quantity
 * (docs/decisions/prescriptions.md#prescription-redemption). Runs in the intake's transaction (order intake, and
 * adding a fulfillment), after the order row, so that a retried external_id still ends as 409: its
 * first attempt's items redeemed the prescription already.
 *
 * Each inline PDF's SHA-256 is locked (an advisory lock) and looked up: a PDF the organisation
 * already holds is that prescription again. Then every prescription the items redeem is locked in
 * id order and checked, all its items of the intake together: the order's patient, SKUs it
 * prescribes, no more than is left (lines minus live items). A refusal is a 422 with a message at
 * each item's (or PDF's) field; nothing is written.
 */
export async function redeemPrescriptions(
  tx: RawTx,
  input: {
    organisationId: string;
    patientId: string;
    fulfillments: FulfillmentIntake[];
    /** Per fulfillment, per item: its SKU and its prescription by uid (path (c)). */
    resolvedItems: { skuId: string; prescriptionId: string | null }[][];
    inline: Map<string, ValidatedPdf>[];
    fieldPrefix: (fulfillmentIndex: number) => (string | number)[];
  },
): Promise<InlinePlans> {
  const { organisationId, fulfillments } = input;
  const sha256Of = new Map<ValidatedPdf, string>();
  for (const pdfs of input.inline) for (const validated of pdfs.values()) sha256Of.set(validated, createHash("sha256").update(validated.pdf).digest("hex"));
  const sha256s = [...new Set(sha256Of.values())];
  await lockSignedPdf(tx, organisationId, sha256s);
  const known = await prescriptionsBySignedPdf(tx, organisationId, sha256s);

  const recorded = new Map<string, string>(); // by SHA-256, by this intake
  const plans: InlinePlans = input.inline.map((pdfs) => {
    const plan = new Map<string, InlinePlan>();
    for (const [reference, validated] of pdfs) {
      const sha256 = sha256Of.get(validated)!;
      const existing = known.get(sha256);
      if (existing) {
        plan.set(reference, { prescriptionId: existing, record: false, existing: true });
      } else {
        const prescriptionId = recorded.get(sha256) ?? randomUUID();
        plan.set(reference, { prescriptionId, record: !recorded.has(sha256), existing: false });
        recorded.set(sha256, prescriptionId);
      }
    }
    return plan;
  });

  const claims: Claim[] = [];
  fulfillments.forEach((fulfillment, f) => {
    const at = (...path: (string | number)[]) => [...input.fieldPrefix(f), ...path];
    fulfillment.items.forEach((item, i) => {
      const resolved = input.resolvedItems[f][i];
      const where = `Item "${item.externalId}" of fulfillment "${fulfillment.externalId}"`;
      if (resolved.prescriptionId) {
        claims.push({ prescriptionId: resolved.prescriptionId, skuId: resolved.skuId, quantity: item.quantity, field: at("items", i, "prescription_uid"), where, pdf: null });
      }
      const plan = item.prescriptionReference ? plans[f].get(item.prescriptionReference) : undefined;
      if (plan?.existing) {
        const p = (fulfillment.prescriptions ?? []).findIndex((entry) => entry.id === item.prescriptionReference);
        claims.push({
          prescriptionId: plan.prescriptionId,
          skuId: resolved.skuId,
          quantity: item.quantity,
          field: at("items", i, "prescription_reference"),
          where,
          pdf: { field: at("prescriptions", p, "pdf_base64"), where: `Prescription "${item.prescriptionReference}" of fulfillment "${fulfillment.externalId}"` },
        });
      }
    });
  });
  if (claims.length === 0) return plans;

  const ids = [...new Set(claims.map((c) => c.prescriptionId))];
  const locked = await lockForRedemption(tx, organisationId, ids);
  // A statement of its own, after the locks: it sees what the intakes that held them committed.
  const redemptions = await redemptionsOf(tx, ids);

  const errors = new FieldErrorCollector();
  const messages: string[] = [];
  const refuse = (field: (string | number)[], where: string, message: ErrorText) => {
    errors.add(field, message);
    messages.push(`${where}: ${message.english}`);
  };
  for (const id of ids) {
    const mine = claims.filter((c) => c.prescriptionId === id);
    const redemption = redemptions.get(id);
    const status = locked.get(id)?.status;
    const signed = redemption !== undefined && status !== undefined && isSignedStatus(status);
    // Deleted or changed since the intake looked it up: refused as an unknown one would be.
    const byUid = mine.filter((c) => !c.pdf);
    for (const c of signed ? [] : byUid) refuse(c.field, c.where, errorText("orders.redemption.notSigned"));
    if (!redemption || status === undefined) {
      for (const pdf of pdfsOf(mine)) refuse(pdf.field, pdf.where, errorText("orders.redemption.notSigned"));
      continue;
    }
    if (redemption.patientId !== input.patientId) {
      for (const c of signed ? byUid : []) refuse(c.field, c.where, errorText("orders.redemption.otherPatient"));
      for (const pdf of pdfsOf(mine)) refuse(pdf.field, pdf.where, errorText("orders.redemption.pdfOtherPatient", { prescription: id }));
      continue;
    }
    // A known PDF with nothing left is said once, at the PDF.
    let byPdf = mine.filter((c) => c.pdf);
    if (byPdf.length > 0 && redemption.lines.every((l) => l.remaining === 0) && redemption.redeemedBy.length > 0) {
      for (const pdf of pdfsOf(byPdf)) refuse(pdf.field, pdf.where, errorText("orders.redemption.pdfUsed", { order: redemption.redeemedBy[0], prescription: id }));
      byPdf = [];
    }
    checkQuantities([...(signed ? byUid : []), ...byPdf], redemption, refuse);
  }
  if (!errors.empty) throw new UnprocessableError(messages.join(" "), errors.fields as FieldErrors);
  return plans;
}

type Refuse = (field: (string | number)[], where: string, message: ErrorText) => void;

/** The PDFs (path (d)) the claims come from, each once. */
const pdfsOf = (claims: Claim[]) => [...new Map(claims.flatMap((c) => (c.pdf ? [[c.pdf.field.join("."), c.pdf] as const] : []))).values()];

/** Each SKU of the prescription: prescribed at all, and the intake's items of it together no more than is left. */
function checkQuantities(claims: Claim[], redemption: PrescriptionRedemption, refuse: Refuse): void {
  for (const skuId of new Set(claims.map((c) => c.skuId))) {
    const ofSku = claims.filter((c) => c.skuId === skuId);
    const { prescribed, remaining } = skuRedemption(redemption, skuId);
    if (prescribed === 0) {
      for (const c of ofSku) refuse(c.field, c.where, errorText("orders.redemption.skuNotPrescribed"));
      continue;
    }
    const asked = ofSku.reduce((sum, c) => sum + c.quantity, 0);
    if (asked <= remaining) continue;
    const message =
      remaining === 0 && redemption.redeemedBy.length > 0
        ? errorText("orders.redemption.redeemed", { prescribed, order: redemption.redeemedBy[0] })
        : errorText("orders.redemption.notEnoughLeft", { remaining, prescribed, asked });
    for (const c of ofSku) refuse(c.field, c.where, message);
  }
}
