import { randomUUID } from "node:crypto";
import { hashPassword } from "@/server/auth/password";
import type { Db } from "@/server/db/client";
import { portalSessionCookie, seedOrders } from "./orders";

/**
 * The admin tool on a large organisation: the orders scenario's data (BENCH_ADMIN_ORDERS pharmacy
 * orders, default 100,000, with their status histories), AUDIT_EVENTS audit events spread over a
 * year, OPEN_THREADS open issue threads, and an admin. Measured over HTTP with the admin's session
 * cookie, as the browser calls the procedures.
 */
const ORDERS = Number(process.env.BENCH_ADMIN_ORDERS ?? 100_000);
export const AUDIT_EVENTS = 100_000;
const OPEN_THREADS = 500;

/**
 * `count` audit events of kinds in turn, numbered from `from` + 1: every AUDIT_EVENTS of them spread
 * over the last year, five minutes apart (events past the first AUDIT_EVENTS fall between those).
 */
export async function insertAuditEvents(db: Db, organisationId: string, from: number, count: number) {
  const kinds = ["api_key", "user", "setting", "product", "sku", "order", "webhook_subscription"];
  await db.$executeRawUnsafe(
    `INSERT INTO "AuditEvent" ("id", "organisationId", "entityType", "entityId", "action", "summary", "actorType", "createdAt")
     SELECT gen_random_uuid()::text, $1, (ARRAY['${kinds.join("','")}'])[1 + i % ${kinds.length}], gen_random_uuid()::text, 'changed',
            'Bench change ' || i, 'SYSTEM', now() - ((i % ${AUDIT_EVENTS}) * interval '5 minutes') - ((i / ${AUDIT_EVENTS}) * interval '17 seconds')
       FROM generate_series(${from + 1}, ${from + count}) AS i`,
    organisationId,
  );
}

export async function seedAdmin(db: Db) {
  const t0 = performance.now();
  const orders = await seedOrders(db, { orders: ORDERS, label: "admin" });
  const { organisationId } = orders;
  const admin = { email: `bench-admin-${randomUUID().slice(0, 8)}@example.com`, password: randomUUID() };
  await db.user.create({
    data: { email: admin.email, displayName: "Bench Admin", passwordHash: await hashPassword(admin.password), role: "ADMIN", organisationId },
  });
  await insertAuditEvents(db, organisationId, 0, AUDIT_EVENTS);
  await db.$executeRawUnsafe(
    `INSERT INTO "AdminIssueThread" ("id", "pharmacyOrderId", "description", "openedByType", "createdAt")
     SELECT gen_random_uuid()::text, p."id", 'Bench on-hold comment', 'SYSTEM', p."createdAt"
       FROM "PharmacyOrder" p WHERE p."organisationId" = $1 ORDER BY p."createdAt" DESC LIMIT ${OPEN_THREADS}`,
    organisationId,
  );
  const orderIds = (
    await db.pharmacyOrder.findMany({ where: { organisationId }, select: { orderId: true }, take: 1_000, orderBy: { id: "asc" } })
  ).map((p) => p.orderId);
  return { ...orders, admin, orderIds, seedMs: performance.now() - t0 };
}

export type AdminContext = Awaited<ReturnType<typeof seedAdmin>>;

/** tRPC queries of the admin tool's busiest pages. */
export function adminEndpoints(url: string, ctx: AdminContext) {
  let session: Promise<string> | undefined;
  const query = async (procedure: string, input: unknown) =>
    fetch(`${url}/api/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`, {
      headers: { cookie: await (session ??= portalSessionCookie(url, ctx.admin)) },
    });
  const pick = <T>(list: T[], i: number) => list[(i * 7_919) % list.length];
  return [
    { name: "GET /api/trpc/admin.home.summary (five attention counts)", expectStatus: 200, request: () => query("admin.home.summary", {}) },
    {
      name: "GET /api/trpc/admin.orders.list (25 per page, pages 0–99)",
      expectStatus: 200,
      request: (i: number) => query("admin.orders.list", { page: i % 100, limit: 25 }),
    },
    {
      name: "GET /api/trpc/admin.orders.list?search=<PO-name group>",
      expectStatus: 200,
      request: (i: number) => query("admin.orders.list", { search: pick(ctx.nameFragments, i), limit: 25 }),
    },
    {
      name: "GET /api/trpc/admin.orders.list?search=<last-name fragment>",
      expectStatus: 200,
      request: (i: number) => query("admin.orders.list", { search: pick(ctx.lastNameFragments, i), limit: 25 }),
    },
    { name: "GET /api/trpc/admin.orders.get (order detail)", expectStatus: 200, request: (i: number) => query("admin.orders.get", { uid: pick(ctx.orderIds, i) }) },
    { name: "GET /api/trpc/admin.issues.list (open threads, 50)", expectStatus: 200, request: () => query("admin.issues.list", { status: "open", limit: 50 }) },
    { name: "GET /api/trpc/admin.audit.list (newest 50, all kinds)", expectStatus: 200, request: () => query("admin.audit.list", { limit: 50 }) },
    {
      name: "GET /api/trpc/admin.audit.list (kind pharmacy_order, 50)",
      expectStatus: 200,
      request: () => query("admin.audit.list", { kinds: ["pharmacy_order"], limit: 50 }),
    },
    {
      name: "GET /api/trpc/admin.audit.list (kind api_key, 50)",
      expectStatus: 200,
      request: () => query("admin.audit.list", { kinds: ["api_key"], limit: 50 }),
    },
  ];
}
