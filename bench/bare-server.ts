/**
 * The physical floor of the list (orders benchmark, `--scenario scale`): a bare `node:http` server
 * with a `pg` pool, no framework, no key check, sending the pharmacy order list's own statement
 * (pharmacyOrderListStatement, the text listPharmacyOrdersJson sends, prepared the same way) and
 * writing the body the REST list writes as one buffer with a Content-Length. The detail runs the
 * service's own domain query and presenter through Prisma: the service minus Next.js and the kit.
 * POST /v1/management/orders is the floor of intake (bench/bare-intake.ts).
 *
 *   node --import tsx bench/bare-server.ts   (env: DATABASE_URL, PORT, BARE_PHARMACY_ID,
 *                                             BARE_ORGANISATION_ID, BARE_API_KEY_ID)
 */
import http from "node:http";
import pg from "pg";
import { presentPharmacyOrderDetail } from "@/server/api/external-pharmacy/pharmacy-order.presenters";
import { getPharmacyOrderDetail, pharmacyOrderListStatement } from "@/server/domain/pharmacy-orders/queries";
import { paginatedJson } from "@/server/wire/format";
import { BARE_INTAKE_PATH, bareIntake } from "./bare-intake";

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const pharmacyId = process.env.BARE_PHARMACY_ID!;
const LIST = "/v1/external_pharmacy_api/pharmacy_orders/";

function send(res: http.ServerResponse, status: number, body: string) {
  const bytes = Buffer.from(body, "utf8");
  res.writeHead(status, { "content-type": "application/json", "content-length": bytes.length });
  res.end(bytes);
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const server = http.createServer(async (req, res) => {
  try {
    const url = new URL(req.url ?? "/", "http://bare");
    if (url.pathname === "/") return send(res, 200, "{}");
    if (url.pathname === BARE_INTAKE_PATH && req.method === "POST") {
      return await bareIntake(pool, process.env.BARE_ORGANISATION_ID!, process.env.BARE_API_KEY_ID!, await readBody(req), res);
    }
    if (url.pathname === LIST) {
      const page = { page: Number(url.searchParams.get("page") ?? 0), limit: Number(url.searchParams.get("limit") ?? 50) };
      const { text, values } = pharmacyOrderListStatement({ pharmacyIds: [pharmacyId] }, page);
      const { rows } = await pool.query<{ entries: string; total: number }>({ name: "list", text, values });
      return send(res, 200, paginatedJson(rows[0].entries, rows[0].total, page));
    }
    if (url.pathname.startsWith(LIST)) {
      const uid = url.pathname.slice(LIST.length).replace(/\/$/, "");
      return send(res, 200, JSON.stringify(presentPharmacyOrderDetail(await getPharmacyOrderDetail(pharmacyId, uid))));
    }
    send(res, 404, "{}");
  } catch (error) {
    send(res, 500, JSON.stringify({ error: String(error) }));
  }
});
server.listen(Number(process.env.PORT), "127.0.0.1");
for (const signal of ["SIGTERM", "SIGINT"] as const) process.on(signal, () => server.close(() => void pool.end().then(() => process.exit(0))));
