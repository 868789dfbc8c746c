/**
 * POST /v2/public-api/treatments/{shop_identifier} (docs/decisions/intake.md#checkouts): the
 * answers checked against the questionnaire's SurveyJS model, stored as the patient's completed
 * anamnesis with the intent, and the order made on completion waiting for a doctor (intake path (b)).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/server/auth/api-keys";
import { completeCheckoutByToken } from "@/server/domain/checkouts/complete-checkout";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { post } from "@/tests/http";
import { withShopSkus } from "@/tests/orders";

let t: Tenant;
let other: Tenant;
let questionnaireId: string;
let foreignQuestionnaireId: string;

const model = {
  pages: [
    {
      name: "p1",
      elements: [
        { type: "text", name: "weight_kg", inputType: "number", isRequired: true, validators: [{ type: "numeric", minValue: 30, maxValue: 300 }] },
        { type: "boolean", name: "smoker", isRequired: true },
        { type: "text", name: "smoking_since", visibleIf: "{smoker} = true", isRequired: true },
      ],
    },
    { name: "p2", elements: [{ type: "radiogroup", name: "hair_loss", choices: ["crown", "temples"], isRequired: true }] },
  ],
};

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  await withShopSkus(t);
  questionnaireId = (await t.db.questionnaire.create({ data: { organisationId: t.organisation.id, displayName: "Hair loss", model } })).id;
  foreignQuestionnaireId = (await other.db.questionnaire.create({ data: { organisationId: other.organisation.id, displayName: "Other", model } })).id;
});

const answers = { weight_kg: 80, smoker: false, hair_loss: "crown" };

function body(overrides: Record<string, unknown> = {}) {
  return {
    questionnaire_uid: questionnaireId,
    answers,
    intent: "hair-loss",
    lines: [{ sku_uid: t.rxSku.id, quantity: 1 }],
    patient_data: { first_name: "Max", last_name: "Muster", date_of_birth: 631152000, gender: "male" },
    shop_customer_id: "treat-1",
    shipping_address: { first_name: "Max", last_name: "Muster", address1: "Ring 12a", city: "Köln", country_code: "DE", zip: "50667" },
    ...overrides,
  };
}

const treatment = (b: unknown, key = t.keys.public, shop = t.shop.identifier) => post(`/v2/public-api/treatments/${shop}`, { key, body: b });

async function footprint() {
  return {
    drafts: await t.db.draftOrder.count({ where: { organisationId: t.organisation.id } }),
    patients: await t.db.patientProfile.count({ where: { organisationId: t.organisation.id } }),
    responses: await t.db.questionnaireResponse.count({ where: { questionnaireId } }),
  };
}

describe("creating a treatment checkout", () => {
  it("stores the answers as the patient's completed anamnesis with the intent; the lines carry it", async () => {
    const r = await treatment(body());
    expect(r.status, r.text).toBe(201);
    expect(r.json).toEqual({
      draft_order_id: expect.stringMatching(/^\d+$/),
      checkout_type: "draft_order",
      status: "open",
      checkout_url: expect.stringContaining("/checkout/"),
      expires_at: expect.any(Number),
      anamnesis_uid: expect.any(String),
    });
    const draft = await t.db.draftOrder.findUniqueOrThrow({ where: { legacyId: BigInt(r.json.draft_order_id) }, include: { lines: true } });
    expect(draft.kind).toBe("TREATMENT_CHECKOUT");
    expect(draft.lines.map((l) => l.anamnesisId)).toEqual([r.json.anamnesis_uid]);
    const response = await t.db.questionnaireResponse.findUniqueOrThrow({ where: { id: r.json.anamnesis_uid } });
    expect(response).toMatchObject({ questionnaireId, patientId: draft.patientId, status: "COMPLETED", intent: "hair-loss", data: answers });
    expect(response.completedAt).not.toBeNull();
  });

  it("completing it creates the order with its items waiting for a doctor (intake path b)", async () => {
    const r = await treatment(body({ shop_customer_id: "treat-order" }));
    const { orderId } = await completeCheckoutByToken(r.json.checkout_url.split("/checkout/")[1]);
    const order = await t.db.order.findUniqueOrThrow({ where: { id: orderId }, include: { items: true, prescriptions: { include: { lines: true } }, pharmacyOrders: true } });
    expect(order.status).toBe("waiting for doctor");
    expect(order.items).toHaveLength(1);
    expect(order.items[0]).toMatchObject({ anamnesisId: r.json.anamnesis_uid, skuId: t.rxSku.id, totalPaidAmount: 2999 });
    expect(order.prescriptions).toHaveLength(1);
    expect(order.prescriptions[0]).toMatchObject({ status: "waiting for doctor", source: "DOCTOR" });
    expect(order.prescriptions[0].lines[0].anamnesisId).toBe(r.json.anamnesis_uid);
    expect(order.pharmacyOrders).toHaveLength(0);
    expect(order.deliveryAddress).toMatchObject({ street: "Ring", house_number: "12a" });
  });

  it("checks the answers against the model: unknown names, required and validated questions; hidden questions need no answer", async () => {
    const before = await footprint();
    const r = await treatment(body({ answers: { weight_kg: 10, smoker: true, color: "red" } }));
    expect(r.status).toBe(400);
    expect(r.json).toEqual({
      error: {
        answers: {
          color: ["No question with this name in the questionnaire."],
          weight_kg: [expect.stringContaining("30")],
          smoking_since: ["Response required."],
          hair_loss: ["Response required."],
        },
      },
    });
    expect(await footprint()).toEqual(before);
    expect((await treatment(body({ answers: { ...answers, smoker: true, smoking_since: "2010" } }))).status).toBe(201);
  });

  it("404 for another organisation's or an unknown questionnaire, and for another organisation's shop; nothing written", async () => {
    const before = await footprint();
    for (const r of [
      await treatment(body({ questionnaire_uid: foreignQuestionnaireId })),
      await treatment(body({ questionnaire_uid: "no-such-questionnaire" })),
      await treatment(body(), t.keys.public, other.shop.identifier),
    ]) {
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ error: "Resource not found" });
    }
    expect(await footprint()).toEqual(before);
  });

  it("validates its body: questionnaire, answers, lines without prescription_id, the common G26 fields", async () => {
    const r = await treatment(body({ questionnaire_uid: undefined, answers: "yes", lines: [{ sku_uid: t.rxSku.id, quantity: 1, prescription_id: "x" }], patient_data: undefined }));
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({
      questionnaire_uid: ["This field is required."],
      answers: [expect.any(String)],
      lines: { 0: expect.anything() },
      patient_data: ["This field is required."],
    });
    const unknownSku = await treatment(body({ lines: [{ sku_uid: other.rxSku.id, quantity: 1 }] }));
    expect(unknownSku.json).toEqual({ error: { lines: { 0: { sku_uid: ["No SKU with this uid in the shop."] } } } });
  });

  it("needs create_treatment_checkout", async () => {
    const key = (await createApiKey({ family: "PUBLIC", displayName: "rx only", permissions: ["create_prescription_checkout"], organisationId: t.organisation.id })).plaintext;
    const r = await treatment(body(), key);
    expect(r.status).toBe(403);
    expect(r.json).toEqual({ code: "permission_denied", description: "The API key lacks the permission create_treatment_checkout." });
  });
});
