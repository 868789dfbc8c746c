/**
 * Import direction, from the source text (no module is loaded):
 * - the domain (server/domain) knows nothing of transports, jobs or the UI;
 * - handlers (REST routes, tRPC routers, app/, components/) reach the database only through the
 *   domain: type imports are fine, Prisma / database() / the driver are not;
 * - the REST kit (server/rest) is generic: it never imports the families (server/api), and its
 *   modules import each other without cycles;
 * - the order areas of the domain are layered (orders over prescriptions over pharmacy-orders over
 *   payouts): a lower area imports of a higher one only its vocabulary (statuses.ts, intake.ts) or types;
 * - infrastructure (server/pki, server/http, server/storage, server/mail) knows nothing of the domain or the doors.
 * Each violation reads `file:line imports X (rule)`.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readSources, scanImports, type ImportRef } from "./import-scan";

const REPO = path.resolve(import.meta.dirname, "..");

type Files = Map<string, string>;
type Rule = (files: Files) => string[];

const isTest = (file: string) => /\.test\.tsx?$/.test(file);
/** target is the module at p or a module under the folder p. */
const within = (target: string, p: string) => target === p || target.startsWith(`${p}/`);
const report = (ref: ImportRef, rule: string) => `${ref.file}:${ref.line} imports ${ref.specifier} (${rule})`;

function importsOf(files: Files, include: (file: string) => boolean): ImportRef[] {
  return [...files].filter(([file]) => include(file) && !isTest(file)).flatMap(([file, text]) => scanImports(file, text));
}

// ---------------------------------------------------------------- the rules

const DOMAIN_FORBIDDEN_FOLDERS = ["server/api", "server/rest", "server/trpc", "server/jobs", "server/wire", "app", "components"];
const DOMAIN_FORBIDDEN_PACKAGES = /^(next|next-auth[^/]*|react|react-dom)(\/|$)/;

/** server/domain/** imports no transport (REST, tRPC, Next.js), no jobs and no UI, not even types. */
const domainRule: Rule = (files) =>
  importsOf(files, (f) => f.startsWith("server/domain/")).flatMap((ref) => {
    const folder = DOMAIN_FORBIDDEN_FOLDERS.find((p) => within(ref.target, p));
    if (folder) return [report(ref, `the domain must not import ${folder}`)];
    if (DOMAIN_FORBIDDEN_PACKAGES.test(ref.target)) return [report(ref, `the domain must not import ${ref.target.split("/")[0]}`)];
    return [];
  });

const isHandler = (file: string) =>
  (file.startsWith("server/api/") && /\.ts$/.test(file)) ||
  (file.startsWith("server/trpc/routers/") && /\.ts$/.test(file)) ||
  (file.startsWith("app/") && /\.tsx?$/.test(file)) ||
  file.startsWith("components/");
const DATABASE_PACKAGES = /^(@prisma\/client|@prisma\/adapter-pg|pg|@electric-sql\/pglite|pglite-prisma-adapter)(\/|$)/;
/** The generated enums are plain constants (and types): no client, no connection. */
const DATABASE_ALLOWED = ["server/db/generated/enums"];

/** Handlers reach the database through the domain: no value import of server/db/** (client, driver, Prisma) or a driver. */
const handlerRule: Rule = (files) =>
  importsOf(files, isHandler).flatMap((ref) => {
    if (ref.typeOnly || DATABASE_ALLOWED.some((p) => within(ref.target, p))) return [];
    if (within(ref.target, "server/db") || DATABASE_PACKAGES.test(ref.target)) {
      return [report(ref, "a handler must not import the database; go through server/domain")];
    }
    return [];
  });

/** The kit is generic (families plug their routes in): server/rest/** never imports server/api/**. */
const restGenericRule: Rule = (files) =>
  importsOf(files, (f) => f.startsWith("server/rest/"))
    .filter((ref) => within(ref.target, "server/api"))
    .map((ref) => report(ref, "the REST kit must not import server/api"));

/** No import cycle among server/rest modules (type imports included): every import on a cycle is reported. */
const restCycleRule: Rule = (files) => {
  const moduleOf = (file: string) => file.replace(/\.tsx?$/, "").replace(/\/index$/, "");
  const refs = importsOf(files, (f) => f.startsWith("server/rest/")).filter((ref) => within(ref.target, "server/rest"));
  const edges = new Map<string, Set<string>>();
  for (const ref of refs) {
    const from = moduleOf(ref.file);
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from)!.add(ref.target);
  }
  const reaches = (from: string, to: string) => {
    const seen = new Set<string>([from]);
    const queue = [from];
    while (queue.length) {
      for (const next of edges.get(queue.shift()!) ?? []) {
        if (next === to) return true;
        if (seen.has(next)) continue;
        seen.add(next);
        queue.push(next);
      }
    }
    return false;
  };
  return refs
    .filter((ref) => ref.target === moduleOf(ref.file) || reaches(ref.target, moduleOf(ref.file)))
    .map((ref) => report(ref, `import cycle: ${ref.target} leads back to ${moduleOf(ref.file)}`));
};

/** Highest first. A shared step belongs to the lowest area that needs it (docs: ARCHITECTURE.md). */
const ORDER_AREAS = ["orders", "prescriptions", "pharmacy-orders", "payouts"];
/** Constants and types that import nothing of the domain: any area may use them. */
const VOCABULARY = /\/(statuses|intake)$/;
const areaOf = (target: string) => ORDER_AREAS.findIndex((a) => within(target, `server/domain/${a}`));

/** An order area never imports a higher one (but its vocabulary and types): no import circle between them. */
const orderAreaLayersRule: Rule = (files) =>
  importsOf(files, (f) => areaOf(f) >= 0).flatMap((ref) => {
    const from = areaOf(ref.file);
    const to = areaOf(ref.target);
    if (to < 0 || to >= from || ref.typeOnly || VOCABULARY.test(ref.target)) return [];
    return [report(ref, `${ORDER_AREAS[from]} is below ${ORDER_AREAS[to]}: move the shared step down, or import only its vocabulary`)];
  });

const INFRASTRUCTURE = ["server/pki", "server/http", "server/storage", "server/mail"];
const infrastructureRule: Rule = (files) =>
  importsOf(files, (f) => INFRASTRUCTURE.some((p) => f.startsWith(`${p}/`))).flatMap((ref) => {
    const folder = ["server/domain", ...DOMAIN_FORBIDDEN_FOLDERS].find((p) => within(ref.target, p));
    return folder ? [report(ref, `infrastructure must not import ${folder}`)] : [];
  });

// ---------------------------------------------------------------- the codebase

const sources = readSources(REPO, ["server", "app", "components"]);

describe("import direction", () => {
  it("the domain (server/domain) imports no transport, jobs, Next.js, React or components", () => {
    expect(domainRule(sources)).toEqual([]);
  });

  it("handlers (server/api, server/trpc/routers, app, components) do not import the database", () => {
    expect(handlerRule(sources)).toEqual([]);
  });

  it("the REST kit (server/rest) does not import the families and has no import cycle", () => {
    expect([...restGenericRule(sources), ...restCycleRule(sources)]).toEqual([]);
  });

  it("the order areas are layered: orders, prescriptions, pharmacy-orders, payouts", () => {
    expect(orderAreaLayersRule(sources)).toEqual([]);
  });

  it("infrastructure (PKI, webhook HTTP, file storage, SMTP) imports no domain rule and no door", () => {
    expect(infrastructureRule(sources)).toEqual([]);
  });
});

// ---------------------------------------------------------------- the scanner itself

describe("import scanner", () => {
  const fixture = (entries: Record<string, string>): Files => new Map(Object.entries(entries));

  it("reads the codebase's imports (it cannot pass by finding nothing)", () => {
    const all = importsOf(sources, () => true);
    expect(all.length).toBeGreaterThan(500);
    const count = (include: (f: string) => boolean) => [...sources.keys()].filter((f) => include(f) && !isTest(f)).length;
    expect(count((f) => f.startsWith("server/domain/"))).toBeGreaterThan(30);
    expect(count(isHandler)).toBeGreaterThan(30);
    expect(count((f) => f.startsWith("server/rest/"))).toBeGreaterThan(5);
    // Known edges are found: a domain module importing the domain, a catch-all importing the kit.
    expect(all.some((r) => r.file.startsWith("server/domain/") && within(r.target, "server/domain"))).toBe(true);
    expect(all.some((r) => r.file === "app/v1/management/[[...path]]/route.ts" && r.target === "server/rest/kit")).toBe(true);
  });

  it("finds a domain module importing next, react, a job (relative) or a transport type", () => {
    const files = fixture({
      "server/domain/orders/x.ts": [
        'import { z } from "zod";',
        'import { NextResponse } from "next/server";',
        'import type { Session } from "next-auth";',
        'import { useState } from "react";',
        'import { announce } from "../../jobs/webhook-delivery";',
        'import type { Route } from "@/server/rest/kit";',
        'import { getOrder } from "@/server/domain/orders/queries";',
        'import { nextTick } from "node:process";',
        'import { q } from "nextish";',
      ].join("\n"),
      "server/domain/orders/x.test.ts": 'import { NextResponse } from "next/server";',
    });
    expect(domainRule(files)).toEqual([
      "server/domain/orders/x.ts:2 imports next/server (the domain must not import next)",
      "server/domain/orders/x.ts:3 imports next-auth (the domain must not import next-auth)",
      "server/domain/orders/x.ts:4 imports react (the domain must not import react)",
      "server/domain/orders/x.ts:5 imports ../../jobs/webhook-delivery (the domain must not import server/jobs)",
      "server/domain/orders/x.ts:6 imports @/server/rest/kit (the domain must not import server/rest)",
    ]);
  });

  it("allows type-only and enum imports of the database in handlers, not values", () => {
    const files = fixture({
      "server/api/x/a.ts": [
        'import type { Db } from "@/server/db/client";',
        'import { type Driver } from "@/server/db/driver";',
        'import { HiddenSkuType } from "@/server/db/generated/enums";',
        'import type { Sku } from "@/server/db/generated/client";',
        'import { Prisma, type Db as D } from "@/server/db/client";',
        'import { database } from "../../db/client";',
        'import pg from "pg";',
        'export { Prisma as P } from "@prisma/client";',
        'const m = await import("@/server/db");',
      ].join("\n"),
      "components/b.tsx": 'import { openDriver } from "@/server/db/driver";\nexport const B = () => <div />;',
      "server/domain/c.ts": 'import { database } from "@/server/db/client";',
      "server/api/x/a.test.ts": 'import { database } from "@/server/db/client";',
    });
    const rule = "(a handler must not import the database; go through server/domain)";
    expect(handlerRule(files)).toEqual([
      `server/api/x/a.ts:5 imports @/server/db/client ${rule}`,
      `server/api/x/a.ts:6 imports ../../db/client ${rule}`,
      `server/api/x/a.ts:7 imports pg ${rule}`,
      `server/api/x/a.ts:8 imports @prisma/client ${rule}`,
      `server/api/x/a.ts:9 imports @/server/db ${rule}`,
      `components/b.tsx:1 imports @/server/db/driver ${rule}`,
    ]);
  });

  it("reads multi-line imports and export … from at their first line, and skips comments and strings", () => {
    const text = [
      "/**",
      ' * import { database } from "@/server/db/client";',
      " */",
      'const s = `import { NextResponse } from "next/server";`;',
      "import {",
      "  type Db,",
      "  type Tx,",
      '} from "@/server/db/client";',
      "import {",
      "  Prisma,",
      "  type Db as D,",
      '} from "@/server/db/client";',
      "export {",
      "  announce,",
      '} from "@/server/jobs/webhook-delivery";',
      'export type { Route } from "@/server/rest/kit";',
      'export * from "./sibling";',
      '// import "next";',
      'import "./side-effect";',
    ].join("\n");
    const refs = scanImports("server/domain/y.ts", text).map(({ line, specifier, target, typeOnly }) => ({ line, specifier, target, typeOnly }));
    expect(refs).toEqual([
      { line: 5, specifier: "@/server/db/client", target: "server/db/client", typeOnly: true },
      { line: 9, specifier: "@/server/db/client", target: "server/db/client", typeOnly: false },
      { line: 13, specifier: "@/server/jobs/webhook-delivery", target: "server/jobs/webhook-delivery", typeOnly: false },
      { line: 16, specifier: "@/server/rest/kit", target: "server/rest/kit", typeOnly: true },
      { line: 17, specifier: "./sibling", target: "server/domain/sibling", typeOnly: false },
      { line: 19, specifier: "./side-effect", target: "server/domain/side-effect", typeOnly: false },
    ]);
    expect(handlerRule(fixture({ "server/trpc/routers/y.ts": text }))).toEqual([
      "server/trpc/routers/y.ts:9 imports @/server/db/client (a handler must not import the database; go through server/domain)",
    ]);
  });

  it("finds the kit importing a family, and import cycles in server/rest (type imports included)", () => {
    const files = fixture({
      "server/rest/kit.ts": 'import { serveApiDocs } from "./openapi";\nimport { healthRoute } from "@/server/api/health";',
      "server/rest/openapi.ts": 'import type { Route } from "./kit";\nimport { paginationQuery } from "./validation";',
      "server/rest/validation.ts": 'import { z } from "zod";',
      "server/rest/families.ts": 'import type { Family } from "./kit";',
    });
    expect(restGenericRule(files)).toEqual(["server/rest/kit.ts:2 imports @/server/api/health (the REST kit must not import server/api)"]);
    expect(restCycleRule(files)).toEqual([
      "server/rest/kit.ts:1 imports ./openapi (import cycle: server/rest/openapi leads back to server/rest/kit)",
      "server/rest/openapi.ts:1 imports ./kit (import cycle: server/rest/kit leads back to server/rest/openapi)",
    ]);
  });

  it("finds a lower order area importing a higher one, but not its vocabulary or types", () => {
    const files = fixture({
      "server/domain/pharmacy-orders/x.ts": [
        'import { refreshOrderStatus } from "@/server/domain/orders/order-status";',
        'import { ORDER_STATUS } from "@/server/domain/orders/statuses";',
        'import type { Address } from "@/server/domain/orders/intake";',
        'import { routePayouts } from "@/server/domain/payouts/route-payouts";',
      ].join("\n"),
      "server/domain/orders/y.ts": 'import { createPharmacyOrder } from "@/server/domain/pharmacy-orders/create-pharmacy-order";',
    });
    expect(orderAreaLayersRule(files)).toEqual([
      "server/domain/pharmacy-orders/x.ts:1 imports @/server/domain/orders/order-status (pharmacy-orders is below orders: move the shared step down, or import only its vocabulary)",
    ]);
  });

  it("finds infrastructure importing the domain", () => {
    const files = fixture({ "server/storage/files.ts": 'import { ConflictError } from "@/server/domain/errors";\nimport { config } from "@/server/config";' });
    expect(infrastructureRule(files)).toEqual(["server/storage/files.ts:1 imports @/server/domain/errors (infrastructure must not import server/domain)"]);
  });
});
