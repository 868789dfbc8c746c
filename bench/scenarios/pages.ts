/**
 * The pages scenario (embedded database; not part of "all"): Lighthouse on the portals' main pages,
 * as their people open them, on the production build.
 *
 *   npm run bench -- --scenario pages        (BENCH_LIGHTHOUSE_RUNS per page and preset, default 3)
 *
 * BENCH_PAGES_ONLY (a regular expression on the route, e.g. "pharmacy/orders") keeps some pages;
 * BENCH_LIGHTHOUSE_REPORTS (a directory) keeps each run's Lighthouse report as JSON, to read what
 * blocked the main thread and which element was the LCP.
 *
 * A fresh DATA_DIR with the sandbox seed and one order carrying a signed prescription (as the portal
 * scenario makes it); the production entry on BENCH_PORT. Each signed-in page is opened with the
 * session cookie of its user (signed in once through /signin in Playwright), passed to Lighthouse as
 * a request header. Lighthouse 12.2.3 (pinned: 13 needs Node 22) drives Debian's Chromium through
 * chrome-launcher, a fresh headless browser per run; presets "mobile" (Lighthouse's default:
 * Moto G Power, simulated slow 4G and 4× CPU slowdown) and "desktop" (its desktop config). Printed per
 * page and preset, medians of the runs: performance and accessibility scores, LCP, TBT, CLS and the
 * JavaScript transferred; and the build's first-load JavaScript per route (raw and gzip, from
 * .next/diagnostics/route-bundle-stats.json).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import * as chromeLauncher from "chrome-launcher";
import lighthouse, { type Flags } from "lighthouse";
import desktopConfig from "lighthouse/core/config/desktop-config.js";
import { chromium } from "playwright-core";
import { reloadConfig } from "@/server/config";
import { closeDatabase, database } from "@/server/db/client";
import { seedSandbox, type DemoFile } from "@/server/sandbox/seed";
import { describeRun, loadAverage, printRunHeader, runName } from "../run-info";
import { ensureBuild, startServer } from "../server";
import { orderWithPrescription } from "./portal";

const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const ONLY = process.env.BENCH_PAGES_ONLY ? new RegExp(process.env.BENCH_PAGES_ONLY) : null;
const REPORTS = process.env.BENCH_LIGHTHOUSE_REPORTS;
const PORT = Number(process.env.BENCH_PORT ?? 3200);
const CHROMIUM = "/usr/bin/chromium";
const PRESETS = ["mobile", "desktop"] as const;
type Preset = (typeof PRESETS)[number];
type User = "admin" | "pharmacist" | "doctor";

/** A page as its person opens it: the path, the route it is built as, who is signed in (none: /signin). */
type Page = { path: string; route: string; user: User | null };

function pagesOf(order: { pharmacyOrderUid: string; orderUid: string }): Page[] {
  return [
    { path: "/signin", route: "/signin", user: null },
    { path: "/pharmacy", route: "/pharmacy", user: "pharmacist" },
    { path: "/pharmacy/orders", route: "/pharmacy/orders", user: "pharmacist" },
    { path: `/pharmacy/orders/${order.pharmacyOrderUid}`, route: "/pharmacy/orders/[uid]", user: "pharmacist" },
    { path: "/pharmacy/stock", route: "/pharmacy/stock", user: "pharmacist" },
    { path: "/admin", route: "/admin", user: "admin" },
    { path: "/admin/orders", route: "/admin/orders", user: "admin" },
    { path: `/admin/orders/${order.orderUid}`, route: "/admin/orders/[uid]", user: "admin" },
    { path: "/admin/doctor", route: "/admin/doctor", user: "doctor" },
  ];
}

export type PageRow = {
  path: string;
  route: string;
  preset: Preset;
  runs: number;
  performance: number;
  accessibility: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  scriptBytes: number;
  scriptFiles: number;
};
export type RouteJs = { route: string; rawBytes: number; gzipBytes: number; files: number };

/** The build's first-load JavaScript per route, raw and gzip-compressed (level 6, as the server's compression). */
export function firstLoadJs(root = process.cwd()): Map<string, RouteJs> {
  const stats = JSON.parse(readFileSync(path.join(root, ".next/diagnostics/route-bundle-stats.json"), "utf8")) as {
    route: string;
    firstLoadChunkPaths: string[];
  }[];
  const gzipped = new Map<string, number>();
  const gzipOf = (file: string) => gzipped.get(file) ?? gzipped.set(file, gzipSync(readFileSync(path.join(root, file))).length).get(file)!;
  return new Map(
    stats.map(({ route, firstLoadChunkPaths: files }) => [
      route,
      {
        route,
        rawBytes: files.reduce((sum, f) => sum + statSync(path.join(root, f)).size, 0),
        gzipBytes: files.reduce((sum, f) => sum + gzipOf(f), 0),
        files: files.length,
      },
    ]),
  );
}

/** Signs each user in once through /signin and returns their cookies as a Cookie header. */
async function sessionCookies(url: string, demo: DemoFile): Promise<Record<User, string>> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu"] });
  try {
    const cookies = {} as Record<User, string>;
    for (const user of ["admin", "pharmacist", "doctor"] as const) {
      const context = await browser.newContext({ baseURL: url, locale: "en-US" });
      const page = await context.newPage();
      await page.goto("/signin");
      await page.getByLabel("Email").fill(demo.users[user].email);
      await page.getByLabel("Password").fill(demo.users[user].password);
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.waitForURL((u) => !u.pathname.startsWith("/signin"));
      cookies[user] = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
      await context.close();
    }
    return cookies;
  } finally {
    await browser.close();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

type Measure = Omit<PageRow, "path" | "route" | "preset" | "runs">;

/** One Lighthouse run in a fresh headless Chromium. */
async function lighthouseOnce(url: string, preset: Preset, cookie: string | null): Promise<Measure> {
  const chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: ["--headless=new", "--no-sandbox", "--disable-gpu", "--lang=en-US"],
  });
  try {
    const flags: Flags = {
      port: chrome.port,
      output: "json",
      logLevel: "error",
      onlyCategories: ["performance", "accessibility"],
      ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    };
    const result = await lighthouse(url, flags, preset === "desktop" ? desktopConfig : undefined);
    if (!result) throw new Error(`bench pages: Lighthouse returned nothing for ${url}`);
    const { lhr } = result;
    if (REPORTS) {
      mkdirSync(REPORTS, { recursive: true });
      writeFileSync(path.join(REPORTS, `${new URL(url).pathname.replace(/\W+/g, "_")}-${preset}-${Date.now()}.json`), JSON.stringify(lhr));
    }
    if (lhr.runtimeError) throw new Error(`bench pages: ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    // A signed-in page that answered with the sign-in page would measure the wrong page.
    if (new URL(lhr.finalDisplayedUrl).pathname !== new URL(url).pathname) throw new Error(`bench pages: ${url} ended on ${lhr.finalDisplayedUrl}`);
    const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    const summary = (lhr.audits["resource-summary"]?.details as { items?: { resourceType: string; transferSize: number; requestCount: number }[] } | undefined)?.items ?? [];
    const scripts = summary.find((i) => i.resourceType === "script");
    return {
      performance: Math.round((lhr.categories.performance?.score ?? 0) * 100),
      accessibility: Math.round((lhr.categories.accessibility?.score ?? 0) * 100),
      lcpMs: audit("largest-contentful-paint"),
      tbtMs: audit("total-blocking-time"),
      cls: audit("cumulative-layout-shift"),
      scriptBytes: scripts?.transferSize ?? 0,
      scriptFiles: scripts?.requestCount ?? 0,
    };
  } finally {
    chrome.kill();
  }
}

async function measurePage(url: string, page: Page, preset: Preset, cookie: string | null, log: (line: string) => void): Promise<PageRow> {
  const runs: Measure[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await lighthouseOnce(`${url}${page.path}`, preset, cookie));
  const of = (key: keyof Measure) => median(runs.map((r) => r[key]));
  const row: PageRow = {
    path: page.path,
    route: page.route,
    preset,
    runs: runs.length,
    performance: of("performance"),
    accessibility: of("accessibility"),
    lcpMs: of("lcpMs"),
    tbtMs: of("tbtMs"),
    cls: of("cls"),
    scriptBytes: of("scriptBytes"),
    scriptFiles: of("scriptFiles"),
  };
  log(`${page.route} ${preset}: performance ${runs.map((r) => r.performance).join(", ")}; TBT ${runs.map((r) => r.tbtMs.toFixed(0)).join(", ")} ms`);
  return row;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KB`;

export function printPagesTable(rows: PageRow[], js: Map<string, RouteJs>) {
  console.log(`\nPages: Lighthouse 12.2.3, Debian's Chromium, medians of ${RUNS}; signed in; first-load JS from the build (raw / gzip)\n`);
  console.log("| Page | Preset | Performance | Accessibility | LCP | TBT | CLS | JS transferred | First-load JS raw / gzip |");
  console.log("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of rows) {
    const route = js.get(r.route);
    console.log(
      `| ${r.route} | ${r.preset} | ${r.performance} | ${r.accessibility} | ${(r.lcpMs / 1000).toFixed(1)} s | ${r.tbtMs.toFixed(0)} ms | ${r.cls.toFixed(3)} | ${kb(r.scriptBytes)}, ${r.scriptFiles} files | ${route ? `${kb(route.rawBytes)} / ${kb(route.gzipBytes)}` : "—"} |`,
    );
  }
}

export function printRouteJsTable(js: Map<string, RouteJs>) {
  const routes = [...js.values()].sort((a, b) => b.rawBytes - a.rawBytes);
  console.log("\nFirst-load JavaScript per route (the build's own list of chunks each route loads first)\n");
  console.log("| Route | Files | Raw | Gzip |");
  console.log("| --- | ---: | ---: | ---: |");
  for (const r of routes) console.log(`| ${r.route} | ${r.files} | ${kb(r.rawBytes)} | ${kb(r.gzipBytes)} |`);
}

export async function runPages(): Promise<number> {
  const run = await describeRun(false);
  printRunHeader(run);
  ensureBuild(process.argv.includes("--build"));
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "rx-bench-pages-"));
  const env: Record<string, string> = { DATA_DIR: dataDir, DATABASE_URL: "", SEED_ON_START: "false" };
  Object.assign(process.env, env);
  reloadConfig();
  try {
    const demo = await seedSandbox(await database());
    await closeDatabase(); // PGlite: the server must be the only process with the directory open
    const server = await startServer(env, PORT);
    const rows: PageRow[] = [];
    try {
      const order = await orderWithPrescription(server.url, { demo });
      const cookies = await sessionCookies(server.url, demo);
      console.log(`[pages] load average (1 / 5 / 15 min) before it ${loadAverage()}`);
      for (const page of pagesOf(order).filter((p) => !ONLY || ONLY.test(p.route))) {
        for (const preset of PRESETS) {
          rows.push(await measurePage(server.url, page, preset, page.user ? cookies[page.user] : null, (line) => console.log(`[pages] ${line}`)));
        }
      }
    } finally {
      await server.stop();
    }
    const js = firstLoadJs();
    console.log(`\nResults of ${runName(run)}. ${run.machine}. Load average after: ${loadAverage()}.`);
    printPagesTable(rows, js);
    printRouteJsTable(js);
    return 0;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
