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
import { parseArgs } from "node:util";
import { closeDatabase } from "../server/db/client";
import { DomainError, ValidationError, type FieldErrors } from "../server/domain/errors";
import { createOrganisation, issueAdminLink, listOrganisations } from "../server/domain/organisations/create-organisation";
import { sendQueuedMail } from "../server/domain/mail/send-mail";

const USAGE = `Usage:
  npm run org -- create --name <organisation name> --admin-email <e-mail> [--admin-name <name>]
  npm run org -- list
  npm run org -- admin-link --admin-email <e-mail>`;

const FLAGS: Record<string, string> = { name: "--name", adminEmail: "--admin-email", adminName: "--admin-name" };

/** Field errors as the command's own flags name them: `--admin-email: Enter a valid e-mail address.` */
function flagMessages(fields: FieldErrors): string[] {
  return Object.entries(fields).flatMap(([field, messages]) => (Array.isArray(messages) ? messages.map((m) => `${FLAGS[field] ?? field}: ${m}`) : flagMessages(messages)));
}

/** Sends a link's e-mail now (the server may not run: an embedded database is closed to it) and says how it went. */
async function mailNow(mailId: string | null, to: string): Promise<void> {
  if (!mailId) return;
  try {
    const outcome = await sendQueuedMail(mailId);
    console.log(outcome === "failed" ? `The e-mail to ${to} was refused by the mail server (its reason is on the admin tool's E-mail page): pass the link on yourself.` : `It is e-mailed to ${to}.`);
  } catch {
    console.log(`The e-mail to ${to} could not be sent yet: the server sends it when it runs (retried with its background tasks).`);
  }
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { name: { type: "string" }, "admin-email": { type: "string" }, "admin-name": { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  const [command, ...rest] = positionals;
  if (values.help || rest.length > 0 || !["create", "list", "admin-link"].includes(command ?? "")) {
    console.log(USAGE);
    return values.help ? 0 : 2;
  }
  if (command === "list") {
    for (const o of await listOrganisations()) {
      console.log(`${o.organisationId}  ${o.displayName}${o.sandbox ? "  (sandbox)" : ""}  created ${o.createdAt.toISOString()}  admins: ${o.activeAdmins}`);
    }
    return 0;
  }
  try {
    if (command === "admin-link") {
      const issued = await issueAdminLink(values["admin-email"] ?? "");
      console.log(`${issued.purpose === "INVITATION" ? "A new invitation" : "A password reset link"} for ${values["admin-email"]?.trim()} (valid until ${issued.expiresAt.toISOString()}):`);
      console.log(issued.link);
      await mailNow(issued.mailId, values["admin-email"]?.trim() ?? "");
      return 0;
    }
    const created = await createOrganisation({ name: values.name ?? "", adminEmail: values["admin-email"] ?? "", adminName: values["admin-name"] });
    console.log(`Organisation "${created.displayName}" created: ${created.organisationId}`);
    console.log(`Its admin ${created.adminEmail} is invited. Send them this link to choose a password (valid until ${created.invitationExpiresAt.toISOString()}):`);
    console.log(created.invitationLink);
    await mailNow(created.invitationMailId, created.adminEmail);
    return 0;
  } catch (error) {
    if (error instanceof ValidationError) {
      for (const line of flagMessages(error.fields)) console.error(line);
      return 2;
    }
    if (error instanceof DomainError) {
      console.error(error.message);
      return 2;
    }
    throw error;
  }
}

let status: number;
try {
  status = await main(process.argv.slice(2));
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  // A flag parseArgs does not know, or one without its value: a usage error.
  const usage = String((error as { code?: string }).code).startsWith("ERR_PARSE_ARGS");
  if (usage) console.error(USAGE);
  status = usage ? 2 : 1;
} finally {
  await closeDatabase();
}
process.exit(status!);
