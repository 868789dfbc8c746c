/**
 * The portal's order detail page with a signed prescription: how long Chromium takes from the start
 * of a navigation to /pharmacy/orders/{uid} until react-pdf's page canvas is visible. The sandbox
 * seed provides the organisation, the pharmacist, the keys and the QES signer; the order comes in
 * through POST /v1/management/orders with an inline signed PDF, as in e2e/pharmacy-orders.spec.ts.
 * The first load (nothing cached in the browser, the server's page not rendered yet) is reported
 * apart from the warm ones.
 */
import { readFileSync } from "node:fs";
import { chromium } from "playwright-core";
import type { Db } from "@/server/db/client";
import { samplePrescriptionPdf } from "@/server/pki/sample-pdf";
import { signPdfWithP12 } from "@/server/pki/sign-pdf";
import { seedSandbox, type DemoFile } from "@/server/sandbox/seed";

/** Navigations measured, the first included (BENCH_PORTAL_LOADS). */
const LOADS = Number(process.env.BENCH_PORTAL_LOADS ?? 10);
const CANVAS_TIMEOUT_MS = 60_000;

export type PortalContext = { demo: DemoFile };
export type PortalRow = { database: string; measure: string; loads: number; p50: number; p95: number; max: number };

export async function seedPortal(db: Db): Promise<PortalContext> {
  return { demo: await seedSandbox(db) };
}

/** An order of the sandbox pharmacist's pharmacy carrying the signed prescription: its uid and its pharmacy order's. */
export async function orderWithPrescription(url: string, { demo }: PortalContext): Promise<{ orderUid: string; pharmacyOrderUid: string }> {
  const externalId = `bench-portal-${Date.now()}`;
  // Signed for this order: a signed PDF redeems its prescription once (docs/decisions/prescriptions.md#prescription-redemption).
  const signedPdf = await signPdfWithP12(await samplePrescriptionPdf({ patient: externalId }), readFileSync(demo.qes.signer_p12_path), demo.qes.signer_p12_password);
  const created = await fetch(`${url}/v1/management/orders`, {
    method: "POST",
    headers: { "X-API-Key": demo.keys.management, "content-type": "application/json" },
    body: JSON.stringify({
      shop_identifier: demo.shop.identifier,
      external_id: externalId,
      customer: { id: `cust-${externalId}`, email: "erika@example.com" },
      delivery_address: { first_name: "Erika", last_name: "Bench", street: "Hauptstr.", house_number: "5", zip_code: "10115", city: "Berlin", country: "DE" },
      fulfillments: [
        {
          external_id: "f-1",
          destination_pharmacy_uid: demo.pharmacies[0]!.uid,
          items: [{ external_id: "i-1", sku_reference: demo.catalogue.rx[0]!.sku_reference, quantity: 1, total_paid: { amount: 2890, currency: "EUR" }, prescription_reference: "rx-1" }],
          prescriptions: [{ id: "rx-1", pdf_base64: signedPdf.toString("base64") }],
        },
      ],
    }),
  });
  if (created.status !== 201) throw new Error(`bench portal: order intake answered ${created.status}: ${await created.text()}`);
  const { uid: orderUid } = (await created.json()) as { uid: string };
  const listed = await fetch(`${url}/v1/external_pharmacy_api/pharmacy_orders/?search=${externalId}`, { headers: { "X-API-Key": demo.keys.pharmacy } });
  const [entry] = ((await listed.json()) as { data: { uid: string }[] }).data;
  if (!entry) throw new Error("bench portal: the pharmacy order was not found");
  return { orderUid, pharmacyOrderUid: entry.uid };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

export async function benchPortalPdf(url: string, ctx: PortalContext, database: string, log: (line: string) => void): Promise<PortalRow[]> {
  const { pharmacyOrderUid: uid } = await orderWithPrescription(url, ctx);
  // The launch of playwright.config.ts: Debian's Chromium, headless.
  const browser = await chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    const page = await (await browser.newContext({ baseURL: url, viewport: { width: 1280, height: 720 } })).newPage();
    const { pharmacist } = ctx.demo.users;
    await page.goto("/signin?callbackUrl=%2Fpharmacy");
    await page.getByLabel("Email").fill(pharmacist.email);
    await page.getByLabel("Password").fill(pharmacist.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/pharmacy$/);

    const canvas = page.getByTestId("prescription-pdf").locator("canvas");
    const times: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      const started = performance.now();
      await page.goto(`/pharmacy/orders/${uid}`);
      await canvas.waitFor({ state: "visible", timeout: CANVAS_TIMEOUT_MS });
      times.push(performance.now() - started);
    }
    log(`order detail with PDF: ${times.map((t) => t.toFixed(0)).join(", ")} ms`);
    const row = (measure: string, sample: number[]): PortalRow => {
      const sorted = [...sample].sort((a, b) => a - b);
      return { database, measure, loads: sorted.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted[sorted.length - 1]! };
    };
    return [row("first load", times.slice(0, 1)), ...(times.length > 1 ? [row("warm loads", times.slice(1))] : [])];
  } finally {
    await browser.close();
  }
}

export function printPortalTable(rows: PortalRow[]) {
  if (rows.length === 0) return;
  console.log("\nPortal: order detail page until its prescription PDF's canvas is visible (Chromium, navigation start to canvas)\n");
  console.log("| Database | Loads | n | p50 ms | p95 ms | max ms |");
  console.log("| --- | --- | ---: | ---: | ---: | ---: |");
  for (const r of rows) console.log(`| ${r.database} | ${r.measure} | ${r.loads} | ${r.p50.toFixed(0)} | ${r.p95.toFixed(0)} | ${r.max.toFixed(0)} |`);
}
