/**
 * At-least-once delivery across a crash: the production server is killed with SIGKILL while a
 * webhook delivery waits for its retry; a new server on the same database makes the remaining
 * attempt. Runs its own production server (the build from the Playwright web server) on its own data.
 */
import { createHmac } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { expect, test, type BrowserContext } from "@playwright/test";
import { signInAs } from "./demo";
import { ownServerEnv, signalOwnServer, startOwnServer } from "./own-server";

const root = path.resolve(import.meta.dirname, "..");
const port = 3190;
const base = `http://127.0.0.1:${port}`;
const dataDir = path.join(root, ".data", "e2e-restart");

test("a delivery pending retry survives SIGKILL of the server and is completed by the next one", async ({ browser }) => {
  rmSync(dataDir, { recursive: true, force: true });

  const arrivals: { raw: Buffer; signature: string | undefined; at: number }[] = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      arrivals.push({ raw: Buffer.concat(chunks), signature: req.headers["x-webhook-signature"] as string | undefined, at: Date.now() });
      res.writeHead(arrivals.length === 1 ? 500 : 200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  const target = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const env = await ownServerEnv({
    port,
    dataDir,
    databaseSuffix: "restart",
    // The first retry is due 4 s (±20 %) after the failed attempt: time to kill the server in between.
    extra: { WEBHOOK_RETRY_BASE_MS: "4000" },
  });
  let server = await startOwnServer(env);
  try {
    const demo = JSON.parse(readFileSync(path.join(dataDir, "demo.json"), "utf8"));
    const key = demo.keys.pharmacy as string;
    const headers = { "x-api-key": key, "content-type": "application/json" };

    const created = await fetch(`${base}/v1/external_pharmacy_api/webhooks/`, {
      method: "POST",
      headers,
      body: JSON.stringify({ notification_type: "pharmacy_sku_stock_updated", target, pharmacy_uid: demo.pharmacies[0].uid }),
    });
    expect(created.status).toBe(201);
    const { uid: subscription, webhook_secret: secret } = await created.json();

    // Signed in beforehand: the delivery log is read between the failed attempt and its retry.
    const pharmacist = await browser.newContext({ baseURL: base });
    await signInAs(await pharmacist.newPage(), demo.users.pharmacist, "/pharmacy", { fresh: true });

    const skuUid = demo.catalogue.otc[0].pharmacy_sku_uid as string;
    const changed = await fetch(`${base}/v1/external_pharmacy_api/pharmacy_skus/${skuUid}/stock`, {
      method: "PATCH",
      headers,
      body: JSON.stringify({ stock: 4321 }),
    });
    expect(changed.status).toBe(200);

    await expect.poll(() => arrivals.length).toBe(1); // attempt 1: answered 500
    // Killed once the failed attempt is recorded with its retry due (before that, a kill is a crash
    // in the middle of an attempt: the next server makes it again only after its lease, which is another case).
    const logged = async (context: BrowserContext) => {
      const input = encodeURIComponent(JSON.stringify({ subscriptionUid: subscription }));
      const answer = await context.request.get(`/api/trpc/pharmacy.deliveryLogs.list?input=${input}`);
      const items = (await answer.json()).result.data.items as { state: string; attemptCount: number; nextAttemptAt: number | null }[];
      return items.map((d) => [d.state, d.attemptCount, d.nextAttemptAt === null ? null : "due later"]);
    };
    try {
      await expect.poll(() => logged(pharmacist), { timeout: 3_000, intervals: [50] }).toEqual([["retrying", 1, "due later"]]);
    } finally {
      await pharmacist.close();
    }
    signalOwnServer(server, "SIGKILL");
    await new Promise((r) => server.process.once("exit", r));
    // The retry falls due while no server runs: at the latest 4 s + 20 % after the failed attempt
    // (retryDelayMs in server/domain/webhooks/deliver-attempt.ts), measured from its arrival.
    const dueBy = arrivals[0].at + 4_000 * 1.2;
    await new Promise((r) => setTimeout(r, Math.max(0, dueBy - Date.now())));
    expect(arrivals).toHaveLength(1);

    server = await startOwnServer(env);
    await expect.poll(() => arrivals.length).toBe(2); // attempt 2, by the new server
    const second = arrivals[1];
    expect(second.signature).toBe(createHmac("sha256", Buffer.from(secret, "utf8")).update(second.raw).digest("hex"));
    expect(JSON.parse(second.raw.toString("utf8")).data).toMatchObject({ uid: skuUid, stock: 4321 });
    // No further attempt: the delivery log (the pharmacist's portal) records the delivery as
    // delivered after two attempts, with nothing due; only then is the receiver's count final.
    const context = await browser.newContext({ baseURL: base });
    try {
      await signInAs(await context.newPage(), demo.users.pharmacist, "/pharmacy", { fresh: true });
      await expect.poll(() => logged(context)).toEqual([["delivered", 2, null]]);
    } finally {
      await context.close();
    }
    expect(arrivals).toHaveLength(2);
  } finally {
    signalOwnServer(server, "SIGTERM");
    receiver.closeAllConnections();
    receiver.close();
  }
});
