import { beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/server/auth/api-keys";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { patch } from "@/tests/http";

const M = "/v1/management/questionnaires";

const model = (title: string) => ({
  title,
  pages: [
    {
      name: "p1",
      elements: [
        { type: "radiogroup", name: "smoker", title: "Do you smoke?", choices: ["yes", "no"], isRequired: true },
        { type: "text", name: "weight", inputType: "number", title: "Weight (kg)" },
      ],
    },
  ],
});
const theme = { themeName: "default", colorPalette: "light", cssVariables: { "--sjs-primary-backcolor": "#19b394" } };

let t: Tenant;
let other: Tenant;
let writeKey: string;

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  writeKey = (await createApiKey({ family: "MANAGEMENT", displayName: "q", permissions: ["questionnaire:write"], organisationId: t.organisation.id }))
    .plaintext;
});

const questionnaire = (tenant: Tenant, extra: object = {}) =>
  tenant.db.questionnaire.create({
    data: { organisationId: tenant.organisation.id, displayName: "Anamnesis", model: model("Old"), theme, ...extra },
  });

describe("PATCH /questionnaires/{uid}/model", () => {
  it("publishes the complete model at once and answers {uid, model, theme}; the live theme is kept when omitted", async () => {
    const q = await questionnaire(t);
    const r = await patch(`${M}/${q.id}/model`, { key: writeKey, body: { model: model("New") } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ uid: q.id, model: model("New"), theme });
    const stored = await t.db.questionnaire.findUniqueOrThrow({ where: { id: q.id } });
    expect(stored.model).toEqual(model("New"));
    expect(stored.theme).toEqual(theme);
    expect(stored.publishedAt).toBeInstanceOf(Date);
  });

  it("replaces the theme when one is given, and the model is replaced whole, not merged", async () => {
    const q = await questionnaire(t);
    const small = { elements: [{ type: "boolean", name: "consent", title: "I agree" }] };
    const dark = { themeName: "default", colorPalette: "dark" };
    const r = await patch(`${M}/${q.id}/model`, { key: writeKey, body: { model: small, theme: dark } });
    expect(r.json).toEqual({ uid: q.id, model: small, theme: dark });
    const stored = await t.db.questionnaire.findUniqueOrThrow({ where: { id: q.id } });
    expect(stored.model).toEqual(small);
    expect(stored.theme).toEqual(dark);
  });

  it("shows theme {} for a questionnaire that has none", async () => {
    const q = await t.db.questionnaire.create({ data: { organisationId: t.organisation.id, displayName: "Plain", model: model("Old") } });
    expect((await patch(`${M}/${q.id}/model`, { key: writeKey, body: { model: model("New") } })).json.theme).toEqual({});
  });

  it("removes an older autosaved draft", async () => {
    const q = await questionnaire(t, { draftModel: model("Draft"), draftSavedAt: new Date(Date.now() - 60_000) });
    expect((await patch(`${M}/${q.id}/model`, { key: writeKey, body: { model: model("New") } })).status).toBe(200);
    const stored = await t.db.questionnaire.findUniqueOrThrow({ where: { id: q.id } });
    expect(stored.draftModel).toBeNull();
    expect(stored.draftSavedAt).toBeNull();
  });

  it("refuses what survey-core cannot load as a form, with the reasons under model, and changes nothing", async () => {
    const q = await questionnaire(t, { draftModel: model("Draft"), draftSavedAt: new Date() });
    const invalid: [string, unknown, RegExp][] = [
      ["unknown element type", { elements: [{ type: "no-such-question", name: "x" }, { type: "text", name: "ok" }] }, /type is incorrect/],
      ["question without a name", { elements: [{ type: "text", title: "Name?" }] }, /'name' is required/],
      ["no questions at all", { title: "Empty" }, /no questions/],
      [
        "more than 1 MiB of JSON",
        { elements: Array.from({ length: 2200 }, (_, i) => ({ type: "comment", name: `q${i}`, title: "x".repeat(480) })) },
        /at most 1024 KiB/,
      ],
      ["duplicate question names", { elements: [{ type: "text", name: "a" }, { type: "comment", name: "a" }] }, /unique: a/],
    ];
    for (const [what, body, message] of invalid) {
      const r = await patch(`${M}/${q.id}/model`, { key: writeKey, body: { model: body } });
      expect(r.status, what).toBe(400);
      expect(r.json.error.model.join(" "), what).toMatch(message);
    }
    const stored = await t.db.questionnaire.findUniqueOrThrow({ where: { id: q.id } });
    expect(stored.model).toEqual(model("Old"));
    expect(stored.draftModel).toEqual(model("Draft"));
    expect(stored.publishedAt).toBeNull();
  });

  it("accepts properties survey-core does not know (custom properties of the editor)", async () => {
    const q = await questionnaire(t);
    const custom = { elements: [{ type: "text", name: "a", clinicalCode: "LOINC-1234" }] };
    expect((await patch(`${M}/${q.id}/model`, { key: writeKey, body: { model: custom } })).json.model).toEqual(custom);
  });

  it("answers 400 in the validation shape for a missing or non-object model or theme; 400 for a body that is not JSON", async () => {
    const q = await questionnaire(t);
    for (const [body, field] of [
      [{}, "model"],
      [{ model: null }, "model"],
      [{ model: [model("x")] }, "model"],
      [{ model: "{}" }, "model"],
      [{ model: model("x"), theme: null }, "theme"],
      [{ model: model("x"), theme: "dark" }, "theme"],
    ] as const) {
      const r = await patch(`${M}/${q.id}/model`, { key: writeKey, body });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.json.error[field], JSON.stringify(body)).toEqual(expect.any(Array));
    }
    expect((await patch(`${M}/${q.id}/model`, { key: writeKey, raw: "model=1", headers: { "content-type": "application/json" } })).status).toBe(400);
    expect((await t.db.questionnaire.findUniqueOrThrow({ where: { id: q.id } })).model).toEqual(model("Old"));
  });

  it("answers 404 for another organisation's questionnaire (unchanged) or an unknown one", async () => {
    const foreign = await questionnaire(other);
    for (const id of [foreign.id, "no-such-questionnaire"]) {
      expect(await patch(`${M}/${id}/model`, { key: writeKey, body: { model: model("New") } })).toMatchObject({
        status: 404,
        json: { error: "Resource not found" },
      });
    }
    expect((await other.db.questionnaire.findUniqueOrThrow({ where: { id: foreign.id } })).model).toEqual(model("Old"));
  });

  it("answers 401 without a key and 403 without questionnaire:write", async () => {
    const q = await questionnaire(t);
    expect((await patch(`${M}/${q.id}/model`, { body: { model: model("New") } })).status).toBe(401);
    expect(await patch(`${M}/${q.id}/model`, { key: t.keys.managementReadOnly, body: { model: model("New") } })).toMatchObject({
      status: 403,
      json: { code: "permission_denied", description: expect.stringContaining("questionnaire:write") },
    });
  });
});
