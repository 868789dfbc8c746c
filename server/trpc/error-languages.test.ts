/**
 * The portals' refusals in the caller's language (context.ts resolves it once, init.ts words the
 * domain's keyed messages, zod words its issues in it): a pharmacist who chose German reads a
 * refusal and its field messages in German, one who chose English in English, as does anyone the
 * cookie or the browser names; the REST API's body for the same refusal stays the exact English of
 * the spec's contract.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { patch, post } from "@/tests/http";
import { fulfillmentAt, item, orderBody, placeOrder, withShopSkus } from "@/tests/orders";
import { createPortalUser } from "@/tests/webhook-logs";
import { handleTrpcRequest } from "./handler";
import { createCaller } from "./router";

let t: Tenant;
let refs: Awaited<ReturnType<typeof withShopSkus>>;
let german: PortalSessionUser;
let english: PortalSessionUser;

const EPA = "/v1/external_pharmacy_api";
const REROUTED = "This cancelled order was re-routed to another pharmacy, which now serves it: completing it here too would send the goods out twice.";

beforeAll(async () => {
  t = await createTenant();
  refs = await withShopSkus(t);
  await t.db.pharmacySku.update({ where: { id: t.pharmacySku.id }, data: { stock: 1000 } });
  const pharmacist = async (locale: "de" | "en") => {
    const user = await createPortalUser(t.db, { role: "PHARMACIST", organisationId: t.organisation.id, pharmacyId: t.pharmacy.id });
    await t.db.user.update({ where: { id: user.id }, data: { locale } });
    return user;
  };
  german = await pharmacist("de");
  english = await pharmacist("en");
});

async function newPharmacyOrder() {
  const r = await placeOrder(t, orderBody(t, [], { fulfillments: [fulfillmentAt("f-1", t.pharmacy.id, [item(refs.otcReference)])] }));
  expect(r.status, r.text).toBe(201);
  return t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: r.json.uid }, select: { id: true } });
}

type ErrorBody = { error: { message: string; data: { code: string; fieldErrors: Record<string, unknown> | null; reason?: string } } };

/** A portal call as the browser sends it (a mutation by POST), by `user` (null: signed out) with the request's own headers. */
async function portalCall(procedure: string, input: unknown, user: PortalSessionUser | null, headers: Record<string, string> = {}) {
  const request = new Request(`http://localhost:3000/api/trpc/${procedure}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(input),
  });
  const response = await handleTrpcRequest(request, async () => user);
  return { status: response.status, body: (await response.json()) as ErrorBody };
}

describe("a refusal in the caller's language", () => {
  it("completing a cancelled order another pharmacy serves now: German for the German pharmacist, English for the English one, the REST body unchanged", async () => {
    // Routed automatically (pharmacy A, the cheapest), cancelled by A: re-routed to pharmacy B.
    const r = await placeOrder(t, orderBody(t, [item(refs.otcReference)]));
    const po = await t.db.pharmacyOrder.findFirstOrThrow({ where: { orderId: r.json.uid, pharmacyId: t.pharmacy.id }, select: { id: true } });
    expect((await patch(`${EPA}/pharmacy_orders/${po.id}/status`, { key: t.keys.pharmacy, body: { status: "cancelled" } })).status).toBe(200);
    expect(await t.db.pharmacyOrder.count({ where: { orderId: r.json.uid, status: "waiting for pharmacy" } })).toBe(1);
    const input = { uid: po.id, expectedStatus: "cancelled" };

    const inGerman = await portalCall("pharmacy.orders.complete", input, german);
    expect(inGerman.status).toBe(400);
    expect(inGerman.body.error.message).toBe(
      "Diese stornierte Bestellung wurde an eine andere Apotheke weitergeleitet, die sie jetzt ausführt: Würde sie auch hier abgeschlossen, ginge die Ware zweimal hinaus.",
    );
    // The meaning for the page to act on stays the same in every language.
    expect(inGerman.body.error.data.reason).toBe("order_rerouted");

    const inEnglish = await portalCall("pharmacy.orders.complete", input, english);
    expect(inEnglish.body.error.message).toBe(REROUTED);

    const rest = await patch(`${EPA}/pharmacy_orders/${po.id}/complete_order`, { key: t.keys.pharmacy, body: {} });
    expect(rest.status).toBe(400);
    expect(rest.json).toEqual({ error: REROUTED });
  });

  it("a lost race names what changed, the status by its label", async () => {
    const po = await newPharmacyOrder();
    const input = { uid: po.id, status: "in-progress", expectedStatus: "pending review" };
    expect((await portalCall("pharmacy.orders.changeStatus", input, german)).body.error.message).toBe(
      "Die Bestellung wurde zwischenzeitlich geändert (Status ist jetzt „Wartet auf Apotheke“). Prüfen Sie den aktuellen Stand der Bestellung und versuchen Sie es erneut.",
    );
    expect((await portalCall("pharmacy.orders.changeStatus", input, english)).body.error.message).toBe(
      "The order was changed meanwhile (status is now waiting for pharmacy). Check the order as it is now and try again.",
    );
  });

  it("field messages: the domain's (a webhook's custom header) and zod's (a tracking URL), the REST body in English", async () => {
    const register = { notificationType: "pharmacy_order_created", target: "https://93.184.215.14/hook", headerKey: "X-Token" };
    const inGerman = await portalCall("pharmacy.webhooks.register", register, german);
    expect(inGerman.status).toBe(400);
    expect(inGerman.body.error.data.fieldErrors).toEqual({ headerValue: ["Erforderlich, wenn header_key gesetzt ist."] });
    expect((await portalCall("pharmacy.webhooks.register", register, english)).body.error.data.fieldErrors).toEqual({
      headerValue: ["Required when header_key is set."],
    });
    const rest = await post(`${EPA}/webhooks/`, { key: t.keys.pharmacy, body: { notification_type: "pharmacy_order_created", target: register.target, header_key: "X-Token" } });
    expect(rest.json).toEqual({ error: { header_value: ["Required when header_key is set."] } });

    const po = await newPharmacyOrder();
    const shipment = { uid: po.id, trackingUrl: "not a url", trackingNumber: "x".repeat(101), expectedStatus: "waiting for pharmacy" };
    const zodInGerman = await portalCall("pharmacy.orders.addShipment", shipment, german);
    expect(zodInGerman.body.error.message).toBe("Ungültige Eingabe");
    expect(zodInGerman.body.error.data.fieldErrors).toEqual({
      trackingUrl: ["Geben Sie eine gültige http(s)-URL ein."],
      trackingNumber: ["Dieses Feld darf höchstens 100 Zeichen enthalten."],
    });
    expect((await portalCall("pharmacy.orders.addShipment", shipment, english)).body.error.data.fieldErrors).toEqual({
      trackingUrl: ["Enter a valid http(s) URL."],
      trackingNumber: ["Ensure this field has no more than 100 characters."],
    });
    const restShipment = await patch(`${EPA}/pharmacy_orders/${po.id}/complete_order`, {
      key: t.keys.pharmacy,
      body: { tracking_links: [{ tracking_link: "not a url", carrier: "DHL" }] },
    });
    expect(restShipment.json.error).toEqual({ tracking_links: { 0: { tracking_link: ["Enter a valid http(s) URL."] } } });
  });

  it("the doors' own refusals; without a saved choice the cookie, then the browser's language decides", async () => {
    const forbidden = await portalCall("admin.users.deactivate", { userUid: english.id }, german);
    expect(forbidden.body.error).toMatchObject({ message: "Dieser Bereich ist der Administration vorbehalten.", data: { code: "FORBIDDEN" } });
    const signedOut = (headers: Record<string, string>) => portalCall("pharmacy.orders.changeStatus", {}, null, headers).then((r) => r.body.error.message);
    expect(await signedOut({ "accept-language": "de-DE,de;q=0.9" })).toBe("Bitte melden Sie sich an, um fortzufahren.");
    expect(await signedOut({ "accept-language": "de-DE", cookie: "NEXT_LOCALE=en" })).toBe("Sign in to continue.");
    expect(await signedOut({})).toBe("Sign in to continue.");
  });

  it("a bulk change's per-order refusals, and zod's messages of a server-side call, in the caller's language", async () => {
    const po = await newPharmacyOrder();
    await patch(`${EPA}/pharmacy_orders/${po.id}/status`, { key: t.keys.pharmacy, body: { status: "cancelled" } });
    const inGerman = createCaller({ user: german, locale: "de" }).pharmacy.orders;
    expect(await inGerman.bulkChangeStatus({ uids: [po.id], status: "in-progress" })).toEqual([
      { uid: po.id, ok: false, error: "bad_request", message: "Eine stornierte Bestellung kann nicht mehr geändert werden." },
    ]);
    const refused = await inGerman.changeStatus({ uid: po.id, status: "on-hold", comment: " ", expectedStatus: "cancelled" }).catch((e: unknown) => e);
    expect((refused as { cause?: { issues?: { message: string }[] } }).cause?.issues?.map((i) => i.message)).toEqual([
      "Zum Zurückstellen einer Bestellung ist ein Kommentar erforderlich.",
    ]);
  });
});
