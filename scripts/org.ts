/**
 * npm run org — an operator's organisations outside the sandbox:
 *   npm run org -- create --name "Versandapotheke Muster GmbH" --admin-email admin@example.com [--admin-name "Erika Muster"]
 *   npm run org -- list
 *   npm run org -- admin-link --admin-email admin@example.com
 * `create` makes the organisation and invites its first admin: the invitation link (valid 7 days) is
 * printed, and with a mailer (SMTP_URL) also e-mailed to the admin at once (what cannot be sent now
 * the server's background tasks retry). `admin-link` gives an admin a new one (an expired invitation,
 * a lost password) when no other admin can, printed and e-mailed the same way. With the embedded database stop the server first (only one
 * process may open it; the command says so when it is open); with DATABASE_URL it runs beside the server.
 */
import { closeDatabase } from "../server/db/client";
import { runOrgCommand } from "./org/command";

let status = 1;
try {
  status = await runOrgCommand(process.argv.slice(2), { log: (line) => console.log(line), error: (line) => console.error(line) });
} finally {
  await closeDatabase();
}
process.exit(status);
