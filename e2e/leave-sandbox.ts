/**
 * For a spec with a server of its own (e2e/remote-signing.spec.ts): the seeded demo organisation
 * stops being the sandbox, so its doctors sign as any organisation's do, with their own credential
 * at its trust service. Run with that server stopped (an embedded database opens in one process):
 *   node --import tsx e2e/leave-sandbox.ts <organisation uid>
 * with the server's DATA_DIR and DATABASE_URL. Everything else the seed made stays as it is.
 */
import { closeDatabase, database } from "../server/db/client";

const organisationId = process.argv[2];
if (!organisationId) throw new Error("usage: leave-sandbox.ts <organisation uid>");
try {
  const db = await database();
  const { count } = await db.organisation.updateMany({ where: { id: organisationId }, data: { sandbox: false } });
  if (count !== 1) throw new Error(`no organisation ${organisationId}`);
} finally {
  await closeDatabase();
}
