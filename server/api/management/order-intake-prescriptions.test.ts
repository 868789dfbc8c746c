/**
 * Order intake, prescription paths (d) inline signed PDFs and skip validation, end to end: QES
 * validation during the request, the stored signed copy, the pharmacy order's prescription_file,
 * and render → external-sign → sent to the pharmacy.
 */
import path from "node:path";
import { readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { config } from "@/server/config";
import { createRootCa, issueSignerCertificate, toPkcs12 } from "@/server/pki/certificates";
import { ensureSandboxQes } from "@/server/pki/sandbox-ca";
import { samplePrescriptionPdf } from "@/server/pki/sample-pdf";
import { signPdfWithP12 } from "@/server/pki/sign-pdf";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { get, post } from "@/tests/http";
import { item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";
import { runPrescriptionTask } from "@/tests/prescription-orders";

let t: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let signed: Buffer; // by the sandbox signer (trusted: the tenant is a sandbox organisation)
let untrusted: Buffer; // by a qualified signer of a CA nobody trusts
let notQualified: Buffer; // sandbox-like chain, but without QcCompliance
let unsigned: Buffer;
let selfSigned: Buffer; // a qualified-looking certificate that signed itself
/** Another PDF signed by the sandbox signer: a signed PDF redeems its prescription once (docs/decisions/prescriptions.md#prescription-redemption). */
let freshSigned: () => Promise<Buffer>;

beforeAll(async () => {
  t = await createTenant();
  refs = await withShopSkus(t);
  await t.db.organisation.update({ where: { id: t.organisation.id }, data: { sandbox: true } });
  unsigned = await samplePrescriptionPdf({ patient: "Erika Mustermann" });
  const sandbox = await ensureSandboxQes(path.resolve(config().DATA_DIR));
  signed = await signPdfWithP12(unsigned, readFileSync(sandbox.signerP12Path), sandbox.signerP12Password);
  let signings = 0;
  freshSigned = async () =>
    signPdfWithP12(await samplePrescriptionPdf({ patient: `Erika Mustermann ${++signings}` }), readFileSync(sandbox.signerP12Path), sandbox.signerP12Password);
  const otherCa = await createRootCa({ commonName: "Unknown CA" });
  const stranger = await issueSignerCertificate({ commonName: "Dr. Stranger", issuer: otherCa });
  untrusted = await signPdfWithP12(unsigned, toPkcs12(stranger, [otherCa.certificatePem], "pw"), "pw");
  const plain = await issueSignerCertificate({ commonName: "Dr. Plain", issuer: otherCa, qualified: false });
  notQualified = await signPdfWithP12(unsigned, toPkcs12(plain, [otherCa.certificatePem], "pw"), "pw");
  const self = await issueSignerCertificate({ commonName: "Dr. Self" });
  selfSigned = await signPdfWithP12(unsigned, toPkcs12(self, [], "pw"), "pw");
});

function inlineOrder(pdf: Buffer | string, overrides: Record<string, unknown> = {}) {
  const body = orderBody(t, [], overrides);
  body.fulfillments = [
    {
      external_id: "f-inline",
      items: [item(refs.rxReference, { prescription_reference: "rx-1", total_paid: { amount: 2999, currency: "EUR" } })],
      prescriptions: [{ id: "rx-1", pdf_base64: typeof pdf === "string" ? pdf : pdf.toString("base64") }],
    },
  ] as unknown as typeof body.fulfillments;
  return body;
}

async function nothingCreatedFor(externalId: string) {
  expect(await t.db.order.count({ where: { organisationId: t.organisation.id, externalId } })).toBe(0);
}

describe("path (d): inline signed PDFs", () => {
  it("accepts a PDF with a qualified signature: a prescription signed outside the service, sent to the pharmacy inline", async () => {
    const body = inlineOrder(signed);
    const r = await placeOrder(t, body);
    expect(r.status, r.text).toBe(201);
    expect(r.json.status).toBe("waiting for pharmacy");
    const prescription = await t.db.prescription.findFirstOrThrow({ where: { orderId: r.json.uid }, include: { doctor: true, lines: true } });
    expect(prescription).toMatchObject({ status: "EXTERNALLY_SIGNED", source: "INLINE_PDF" });
    expect(prescription.doctor?.displayName).toBe("Dr. Sandbox Signer");
    expect(prescription.lines).toHaveLength(1);
    expect(r.json.items[0].prescription_uid).toBe(prescription.id);

    const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: r.json.uid } });
    expect(po).toMatchObject({ prescriptionId: prescription.id, prepaid: 2999 });
    const detail = await get(`/v1/external_pharmacy_api/pharmacy_orders/${po.id}`, { key: t.keys.pharmacy });
    expect(detail.json.prescription_file).toEqual({ filename: `prescription-${prescription.id}.pdf`, content_base64: signed.toString("base64") });
    expect(detail.json.doctor_data).toEqual({ uid: prescription.doctorId, display_name: "Dr. Sandbox Signer" });
    expect(detail.json.payouts.map((p: { status: string }) => p.status)).toEqual(["projected", "projected"]);

    // The stored copy is checked against its checksum on every read.
    const { setPrescriptionStorage, prescriptionStorage } = await import("@/server/storage/prescription-files");
    const real = prescriptionStorage();
    setPrescriptionStorage({ ...real, put: real.put.bind(real), putImmutable: real.putImmutable.bind(real), exists: real.exists.bind(real), get: async () => Buffer.from("%PDF-tampered") });
    try {
      const tampered = await get(`/v1/external_pharmacy_api/pharmacy_orders/${po.id}`, { key: t.keys.pharmacy });
      expect(tampered.status).toBe(500);
    } finally {
      setPrescriptionStorage(null);
    }
  });

  it.each([
    ["unsigned", () => unsigned, /no signature|not signed|unsigned/i],
    ["untrusted", () => untrusted, /trust/i],
    ["not qualified", () => notQualified, /qualified/i],
    ["self-signed", () => selfSigned, /trust/i],
    ["changed after signing, outside the signed range", () => Buffer.concat([signed, Buffer.from("\n% appended after signing\n")]), /./],
    ["not a PDF", () => Buffer.from("just some text, not a PDF at all"), /PDF/i],
    ["truncated", () => signed.subarray(0, Math.floor(signed.length / 2)), /./],
  ])("rejects the whole order for a PDF that is %s (422, naming the prescription, nothing created)", async (_name, pdf, reason) => {
    const body = inlineOrder(pdf());
    const r = await placeOrder(t, body);
    expect(r.status, r.text).toBe(422);
    expect(r.json.message).toContain('Prescription "rx-1" of fulfillment "f-inline"');
    expect(r.json.message).toMatch(reason);
    expect(r.json.error.fulfillments["0"].prescriptions["0"].pdf_base64[0]).toContain("rx-1");
    await nothingCreatedFor(body.external_id);
    // The external_id stays free.
    expect((await placeOrder(t, { ...inlineOrder(await freshSigned()), external_id: body.external_id })).status).toBe(201);
  });

  it("rejects a PDF changed after signing, inside the signed range", async () => {
    const tampered = Buffer.from(signed);
    tampered[200] = tampered[200] === 0x41 ? 0x42 : 0x41; // a byte of the signed content
    const r = await placeOrder(t, inlineOrder(tampered));
    expect(r.status).toBe(422);
    expect(r.json.message).toContain("rx-1");
  });

  it("refuses malformed Base64 and references without a PDF as field errors (400)", async () => {
    const truncated = signed.toString("base64").slice(0, -3);
    let r = await placeOrder(t, inlineOrder(truncated));
    expect(r.status).toBe(400);
    expect(r.json.error.fulfillments["0"].prescriptions["0"].pdf_base64).toBeDefined();
    const body = inlineOrder(signed);
    body.fulfillments[0].items[0] = { ...body.fulfillments[0].items[0], prescription_reference: "rx-2" };
    r = await placeOrder(t, body);
    expect(r.status).toBe(400);
    expect(r.json.error.fulfillments["0"].items["0"].prescription_reference).toBeDefined();
    await nothingCreatedFor(body.external_id);
  });

  it("answers 8 MiB of zero bytes with 422 like any other non-PDF (the Base64 check cannot throw on large input)", async () => {
    const body = inlineOrder(Buffer.alloc(8 * 1024 * 1024));
    const r = await placeOrder(t, body);
    expect(r.status).toBe(422);
    expect(r.json.error.fulfillments["0"].prescriptions["0"].pdf_base64).toBeDefined();
    await nothingCreatedFor(body.external_id);
  });

  it("does not trust the sandbox CA for organisations that are not sandboxes", async () => {
    await t.db.organisation.update({ where: { id: t.organisation.id }, data: { sandbox: false } });
    try {
      const r = await placeOrder(t, inlineOrder(signed));
      expect(r.status).toBe(422);
      expect(r.json.message).toMatch(/trust/i);
    } finally {
      await t.db.organisation.update({ where: { id: t.organisation.id }, data: { sandbox: true } });
    }
  });
});

describe("skip validation: a prescription request without anamnesis, rendered and signed externally", () => {
  it("waits for the doctor, then render → external-sign → the pharmacy order carries the signed PDF", async () => {
    const body = orderBody(t, [item(refs.rxReference, { _skip_validation: true, total_paid: { amount: 2999, currency: "EUR" } })]);
    const r = await placeOrder(t, body);
    expect(r.status, r.text).toBe(201);
    expect(r.json.status).toBe("waiting for doctor");
    expect(await t.db.pharmacyOrder.count({ where: { orderId: r.json.uid } })).toBe(0);
    const prescriptionId = r.json.prescriptions[0].uid as string;
    const read = await get(`/v1/management/prescriptions/${prescriptionId}`, { key: t.keys.management });
    expect(read.json).toMatchObject({ status: "waiting for doctor", rendered: false, lines: [expect.objectContaining({ anamnesis_uid: null })] });

    expect((await post(`/v1/management/prescriptions/${prescriptionId}/external-sign`, { key: t.keys.management })).status).toBe(409); // not rendered
    expect((await post(`/v1/management/prescriptions/${prescriptionId}/render`, { key: t.keys.management })).status).toBe(202);
    await runPrescriptionTask(t, "prescription.render", prescriptionId);
    expect((await get(`/v1/management/prescriptions/${prescriptionId}`, { key: t.keys.management })).json.rendered).toBe(true);

    const signedResponse = await post(`/v1/management/prescriptions/${prescriptionId}/external-sign`, { key: t.keys.management });
    expect(signedResponse.json).toEqual({ uid: prescriptionId, status: "EXTERNALLY_SIGNED" });
    await runPrescriptionTask(t, "pharmacy_manager.send_prescription", prescriptionId);
    const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: r.json.uid } });
    const detail = await get(`/v1/external_pharmacy_api/pharmacy_orders/${po.id}`, { key: t.keys.pharmacy });
    expect(detail.json.prescription_file.content_base64.length).toBeGreaterThan(100);
    expect(Buffer.from(detail.json.prescription_file.content_base64, "base64").subarray(0, 5).toString()).toBe("%PDF-");
    expect((await get(`/v1/management/orders/${r.json.uid}`, { key: t.keys.management })).json.status).toBe("waiting for pharmacy");
    expect((await post(`/v1/management/prescriptions/${prescriptionId}/render`, { key: t.keys.management })).status).toBe(409);
  });

  it("resolves the flag item first, then fulfillment, then the order's additional details", async () => {
    const itemFalse = orderBody(t, [item(refs.rxReference, { _skip_validation: false })], { additional_details: { _skip_validation: true } });
    expect((await placeOrder(t, itemFalse)).status).toBe(400);
    const orderLevel = orderBody(t, [item(refs.rxReference)], { additional_details: { _service_skip_validation: "true" } });
    const r = await placeOrder(t, orderLevel);
    expect(r.status, r.text).toBe(201);
    expect(r.json.status).toBe("waiting for doctor");
    const groupLevel = orderBody(t, [item(refs.rxReference)]);
    (groupLevel.fulfillments[0] as Record<string, unknown>)._skip_validation = 1;
    expect((await placeOrder(t, groupLevel)).json.status).toBe("waiting for doctor");
  });
});
