/**
 * npm run seed — creates (or completes) the sandbox organisation and writes .data/demo.json.
 * Idempotent. With the embedded database, stop the server first: only one process may open it.
 */
import { closeDatabase, database } from "../server/db/client";
import { demoFilePath, seedSandbox } from "../server/sandbox/seed";

const demo = await seedSandbox(await database());
await closeDatabase();
console.log(`Sandbox ready: organisation ${demo.organisation_uid}; keys and users in ${demoFilePath()}`);
