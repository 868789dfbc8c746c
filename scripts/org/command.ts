/** The commands of npm run org (scripts/org.ts), callable in-process by tests. */
import { parseArgs } from "node:util";
import { DomainError, ValidationError, type FieldErrors } from "../../server/domain/errors";
import { createOrganisation, issueAdminLink, listOrganisations } from "../../server/domain/organisations/create-organisation";
import { sendQueuedMail } from "../../server/domain/mail/send-mail";

/** Where the command writes: the console when run, a buffer in tests. */
export type Output = { log: (line: string) => void; error: (line: string) => void };

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
async function mailNow(out: Output, mailId: string | null, to: string): Promise<void> {
  if (!mailId) return;
  try {
    const outcome = await sendQueuedMail(mailId);
    out.log(outcome === "failed" ? `The e-mail to ${to} was refused by the mail server (its reason is on the admin tool's E-mail page): pass the link on yourself.` : `It is e-mailed to ${to}.`);
  } catch {
    out.log(`The e-mail to ${to} could not be sent yet: the server sends it when it runs (retried with its background tasks).`);
  }
}

async function main(argv: string[], out: Output): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: { name: { type: "string" }, "admin-email": { type: "string" }, "admin-name": { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  const [command, ...rest] = positionals;
  if (values.help || rest.length > 0 || !["create", "list", "admin-link"].includes(command ?? "")) {
    out.log(USAGE);
    return values.help ? 0 : 2;
  }
  if (command === "list") {
    for (const o of await listOrganisations()) {
      out.log(`${o.organisationId}  ${o.displayName}${o.sandbox ? "  (sandbox)" : ""}  created ${o.createdAt.toISOString()}  admins: ${o.activeAdmins} active, ${o.invitedAdmins} invited`);
    }
    return 0;
  }
  try {
    if (command === "admin-link") {
      const issued = await issueAdminLink(values["admin-email"] ?? "");
      out.log(`${issued.purpose === "INVITATION" ? "A new invitation" : "A password reset link"} for ${values["admin-email"]?.trim()} (valid until ${issued.expiresAt.toISOString()}):`);
      out.log(issued.link);
      await mailNow(out, issued.mailId, values["admin-email"]?.trim() ?? "");
      return 0;
    }
    const created = await createOrganisation({ name: values.name ?? "", adminEmail: values["admin-email"] ?? "", adminName: values["admin-name"] });
    out.log(`Organisation "${created.displayName}" created: ${created.organisationId}`);
    out.log(`Its admin ${created.adminEmail} is invited. Send them this link to choose a password (valid until ${created.invitationExpiresAt.toISOString()}):`);
    out.log(created.invitationLink);
    await mailNow(out, created.invitationMailId, created.adminEmail);
    return 0;
  } catch (error) {
    if (error instanceof ValidationError) {
      for (const line of flagMessages(error.fields)) out.error(line);
      return 2;
    }
    if (error instanceof DomainError) {
      out.error(error.message);
      return 2;
    }
    throw error;
  }
}

/** Runs one command line (without the database's closing, which the process does); resolves to the exit status. */
export async function runOrgCommand(argv: string[], out: Output): Promise<number> {
  try {
    return await main(argv, out);
  } catch (error) {
    out.error(error instanceof Error ? error.message : String(error));
    // A flag parseArgs does not know, or one without its value: a usage error.
    const usage = String((error as { code?: string }).code).startsWith("ERR_PARSE_ARGS");
    if (usage) out.error(USAGE);
    return usage ? 2 : 1;
  }
}
