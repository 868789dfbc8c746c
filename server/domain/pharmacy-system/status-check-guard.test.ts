import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type Tenant } from "@/tests/fixtures";
import { createTestOrder, eur, item, offerSku, routedOrderBody } from "@/tests/orders";
import { checkPharmacyOrderStatuses } from "./status-check";

/**
 * Issue 21 item 4: the scheduled status check asks pharmacy systems through the guarded client. A
 * connector saved while its host was public, whose name now resolves to loopback (as after a DNS
 * change; `localhost` resolves to 127.0.0.1 from /etc/hosts here), or stored with an IPv4-compatible
 * IPv6 literal, reaches nothing: the loopback listener sees no request and the run counts the
 * order as blocked. WEBHOOK_ALLOW_PRIVATE_TARGETS is off (the default) in this file.
 */
let t: Tenant;
let server: Server;
let port: number;
const received: string[] = [];

beforeAll(async () => {
  delete process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
  server = createServer((req, res) => {
    received.push(req.url ?? "");
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ status: "shipped" }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  t = await createTenant();
  await offerSku(t, { shopVariationId: "var-aspirin", price: 1000 });
  await createTestOrder(t, routedOrderBody(t, "guarded", t.pharmacy.id, [item("var-aspirin", { external_id: "guarded-i0", quantity: 1, total_paid: eur(1000) })]));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("the status check's requests go through the outgoing-request guard", () => {
  it.each([
    ["a name that now resolves to 127.0.0.1", () => `http://localhost:${port}/pms`],
    ["IPv4-compatible loopback [::7f00:1]", () => `http://[::7f00:1]:${port}/pms`],
    ["IPv4-compatible metadata [::a9fe:a9fe]", () => `http://[::a9fe:a9fe]:${port}/pms`],
    ["IPv4-compatible private [::a00:1]", () => `http://[::a00:1]:${port}/pms`],
    ["IPv4-mapped loopback [::ffff:127.0.0.1]", () => `http://[::ffff:127.0.0.1]:${port}/pms`],
    ["NAT64 loopback [64:ff9b::7f00:1]", () => `http://[64:ff9b::7f00:1]:${port}/pms`],
  ])("connects to nothing for %s and records the order as blocked", async (_name, url) => {
    // Set directly, as a DNS change after a valid save would leave it.
    await t.db.pharmacy.update({ where: { id: t.pharmacy.id }, data: { systemConnector: { type: "http", url: url(), timeout_ms: 5000 } } });
    received.length = 0;
    const summary = await checkPharmacyOrderStatuses({ now: new Date() });
    expect(summary).toMatchObject({ checked: 1, blocked: 1, completed: 0, unknown: 0 });
    expect(received).toEqual([]);
    const order = await t.db.pharmacyOrder.findFirstOrThrow({ where: { pharmacyId: t.pharmacy.id } });
    expect(order.status).toBe("waiting for pharmacy");
  });
});
