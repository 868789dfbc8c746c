import { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import { STARTER_MODEL } from "@/server/domain/questionnaires/create-questionnaire";
import { SURVEY_MODEL_MAX_BYTES } from "@/server/domain/questionnaires/survey-model";
import { TRPC_BODY_MAX_BYTES } from "@/server/http/body-limits";
import { handleTrpcRequest } from "@/server/trpc/handler";
import { adminCallers, as, type AdminCallers, type Caller } from "@/tests/admin-callers";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { patch } from "@/tests/http";
import { trpcCode } from "@/tests/trpc";

let t: Tenant;
let other: Tenant;
let users: AdminCallers;
let otherQuestionnaireId: string;

const MODEL = { pages: [{ name: "p1", elements: [{ type: "boolean", name: "smoker", title: "Do you smoke?" }] }] };
const json = (value: unknown) => JSON.stringify(value, null, 2);

beforeAll(async () => {
  t = await createTenant();
  other = await createTenant();
  users = await adminCallers(t);
  otherQuestionnaireId = (await as((await adminCallers(other)).admin).admin.questionnaires.create({ displayName: "Theirs" })).uid;
});

const refusal = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCError);
  return { code: (error as TRPCError).code, fields: ((error as TRPCError).cause as { fields?: Record<string, unknown> }).fields };
};

describe("questionnaires in the admin tool", () => {
  it("creates a questionnaire with a starter model, lists it, and records it", async () => {
    const { uid } = await as(users.admin).admin.questionnaires.create({ displayName: " Hair loss " });
    const listed = (await as(users.admin).admin.questionnaires.list()).find((q) => q.uid === uid);
    expect(listed).toMatchObject({ displayName: "Hair loss", publishedAt: null, draftSavedAt: null, responses: 0 });
    expect(await as(users.admin).admin.questionnaires.get({ questionnaireUid: uid })).toMatchObject({ model: STARTER_MODEL, draftModel: null, theme: null });
    const events = await t.db.auditEvent.findMany({ where: { entityId: uid } });
    expect(events.map((e) => [e.entityType, e.action, e.summary])).toEqual([["questionnaire", "created", 'Questionnaire "Hair loss" created']]);
    expect(await trpcCode(as(users.admin).admin.questionnaires.create({ displayName: "  " }))).toBe("BAD_REQUEST");
  });

  it("autosaves a draft, and publishing through the API's function makes it live and removes the draft", async () => {
    const { uid } = await as(users.admin).admin.questionnaires.create({ displayName: "Drafted" });
    const saved = await as(users.admin).admin.questionnaires.saveDraft({ questionnaireUid: uid, model: json({ unfinished: true }) });
    expect(saved.draftSavedAt).toEqual(expect.any(Number));
    expect(await as(users.admin).admin.questionnaires.get({ questionnaireUid: uid })).toMatchObject({ model: STARTER_MODEL, draftModel: { unfinished: true } });

    const published = await as(users.admin).admin.questionnaires.publish({ questionnaireUid: uid, model: json(MODEL), theme: json({ themeName: "flat" }) });
    expect(published).toEqual({ uid, model: MODEL, theme: { themeName: "flat" } });
    const after = await as(users.admin).admin.questionnaires.get({ questionnaireUid: uid });
    expect(after).toMatchObject({ model: MODEL, theme: { themeName: "flat" }, draftModel: null, draftSavedAt: null, publishedAt: expect.any(Number) });
    // Without a theme, the live one is kept (as PATCH …/model).
    await as(users.admin).admin.questionnaires.publish({ questionnaireUid: uid, model: json(MODEL) });
    expect((await as(users.admin).admin.questionnaires.get({ questionnaireUid: uid })).theme).toEqual({ themeName: "flat" });
    const actions = (await t.db.auditEvent.findMany({ where: { entityId: uid }, orderBy: { createdAt: "asc" } })).map((e) => e.action);
    expect(actions).toEqual(["created", "published", "published"]);
    // A discarded draft.
    await as(users.admin).admin.questionnaires.saveDraft({ questionnaireUid: uid, model: json({ a: 1 }) });
    await as(users.admin).admin.questionnaires.saveDraft({ questionnaireUid: uid, model: null });
    expect((await as(users.admin).admin.questionnaires.get({ questionnaireUid: uid })).draftModel).toBeNull();
  });

  it("refuses a model survey-core refuses exactly as PATCH …/model does, and publishes nothing", async () => {
    const { uid } = await as(users.admin).admin.questionnaires.create({ displayName: "Strict" });
    const bad = { pages: [{ name: "p1", elements: [{ type: "no-such-question", name: "x" }, { type: "text", name: "a" }, { type: "text", name: "a" }] }] };
    const rest = await patch(`/v1/management/questionnaires/${uid}/model`, { key: t.keys.management, body: { model: bad } });
    expect(rest.status).toBe(400);
    const refused = await refusal(as(users.admin).admin.questionnaires.publish({ questionnaireUid: uid, model: json(bad) }));
    expect(refused.code).toBe("BAD_REQUEST");
    expect(refused.fields).toEqual(rest.json.error);
    expect((refused.fields?.model as string[]).length).toBeGreaterThan(0);
    const noQuestions = await refusal(as(users.admin).admin.questionnaires.publish({ questionnaireUid: uid, model: json({ pages: [] }) }));
    expect(noQuestions.fields).toEqual({ model: ["The model has no questions."] });

    // Text that is not JSON, or not an object, is refused on the model field before the domain runs.
    const notJson = await refusal(as(users.admin).admin.questionnaires.publish({ questionnaireUid: uid, model: "{ pages: " }));
    expect(notJson.code).toBe("BAD_REQUEST");
    expect(await trpcCode(as(users.admin).admin.questionnaires.publish({ questionnaireUid: uid, model: "[1, 2]" }))).toBe("BAD_REQUEST");
    expect(await trpcCode(as(users.admin).admin.questionnaires.saveDraft({ questionnaireUid: uid, model: "nope" }))).toBe("BAD_REQUEST");

    const row = await t.db.questionnaire.findUniqueOrThrow({ where: { id: uid } });
    expect(row).toMatchObject({ model: STARTER_MODEL, publishedAt: null });
    expect((await t.db.auditEvent.findMany({ where: { entityId: uid } })).map((e) => e.action)).toEqual(["created"]);
  });
});

describe("authorisation", () => {
  const calls = (c: Caller, uid: string) => [
    () => c.admin.questionnaires.list(),
    () => c.admin.questionnaires.get({ questionnaireUid: uid }),
    () => c.admin.questionnaires.create({ displayName: "No" }),
    () => c.admin.questionnaires.saveDraft({ questionnaireUid: uid, model: json(MODEL) }),
    () => c.admin.questionnaires.publish({ questionnaireUid: uid, model: json(MODEL) }),
  ];
  const counts = async () => [
    await t.db.questionnaire.count({ where: { organisationId: t.organisation.id } }),
    await t.db.auditEvent.count({ where: { organisationId: t.organisation.id } }),
  ];

  it("refuses the signed-out, pharmacists and doctors, writing nothing", async () => {
    const before = await counts();
    for (const call of calls(as(null), otherQuestionnaireId)) expect(await trpcCode(call())).toBe("UNAUTHORIZED");
    for (const user of [users.pharmacist, users.doctor]) for (const call of calls(as(user), otherQuestionnaireId)) expect(await trpcCode(call())).toBe("FORBIDDEN");
    expect(await counts()).toEqual(before);
  });

  it("answers NOT_FOUND for another organisation's questionnaire and changes nothing there", async () => {
    const before = await other.db.questionnaire.findUniqueOrThrow({ where: { id: otherQuestionnaireId } });
    expect(await trpcCode(as(users.admin).admin.questionnaires.get({ questionnaireUid: otherQuestionnaireId }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(users.admin).admin.questionnaires.saveDraft({ questionnaireUid: otherQuestionnaireId, model: json(MODEL) }))).toBe("NOT_FOUND");
    expect(await trpcCode(as(users.admin).admin.questionnaires.publish({ questionnaireUid: otherQuestionnaireId, model: json(MODEL) }))).toBe("NOT_FOUND");
    expect(await other.db.questionnaire.findUniqueOrThrow({ where: { id: otherQuestionnaireId } })).toEqual(before);
    expect(await other.db.auditEvent.count({ where: { entityId: otherQuestionnaireId, action: "published" } })).toBe(0);
    expect((await as(users.admin).admin.questionnaires.list()).map((q) => q.uid)).not.toContain(otherQuestionnaireId);
  });
});

describe("the model's size bound, the same through the admin tool and the Management API", () => {
  /** A usable model whose compact JSON is exactly `bytes` long. */
  function modelOfSize(bytes: number): Record<string, unknown> {
    const model = (description: string) => ({ pages: [{ name: "p1", elements: [{ type: "boolean", name: "smoker", title: "Smoker?", description }] }] });
    const base = Buffer.byteLength(JSON.stringify(model("")));
    return model("x".repeat(bytes - base));
  }

  /** Publishing as the editor does: over HTTP to the tRPC handler, the model as indented text. */
  async function publishOverHttp(uid: string, model: Record<string, unknown>) {
    const request = new Request("http://localhost:3000/api/trpc/admin.questionnaires.publish", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ questionnaireUid: uid, model: json(model) }),
    });
    const response = await handleTrpcRequest(request, async () => users.admin);
    return { status: response.status, body: await response.json() };
  }

  it("publishes a model of exactly the bound from the admin tool as from the API, and refuses one byte more on both with the field error", async () => {
    const { uid } = await as(users.admin).admin.questionnaires.create({ displayName: "Large" });
    const atBound = modelOfSize(SURVEY_MODEL_MAX_BYTES);
    const over = modelOfSize(SURVEY_MODEL_MAX_BYTES + 1);

    const published = await publishOverHttp(uid, atBound);
    expect(published.status).toBe(200);
    expect((await patch(`/v1/management/questionnaires/${uid}/model`, { key: t.keys.management, body: { model: atBound } })).status).toBe(200);

    const refused = await publishOverHttp(uid, over);
    expect(refused.status).toBe(400);
    expect(refused.body.error.data.fieldErrors).toEqual({ model: [`Too large: at most ${SURVEY_MODEL_MAX_BYTES / 1024} KiB of JSON.`] });
    const api = await patch(`/v1/management/questionnaires/${uid}/model`, { key: t.keys.management, body: { model: over } });
    expect(api.status).toBe(400);
    expect(api.json.error.model).toEqual([`Too large: at most ${SURVEY_MODEL_MAX_BYTES / 1024} KiB of JSON.`]);
  });

  it("keeps every other procedure at 1 MiB", async () => {
    const request = new Request("http://localhost:3000/api/trpc/admin.questionnaires.create", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ displayName: "x".repeat(TRPC_BODY_MAX_BYTES) }),
    });
    expect((await handleTrpcRequest(request, async () => users.admin)).status).toBe(413);
  });
});
