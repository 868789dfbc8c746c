import proxyaddr from "proxy-addr";
import { z } from "zod";

/** Every setting of the service, read once from the environment. Documented in README and .env.example. */
const flag = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off", ""])
  .default("")
  .transform((v) => ["1", "true", "yes", "on"].includes(v));

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** postgres:// URL of a PostgreSQL server; unset → embedded PGlite under DATA_DIR. `memory:` → in-memory PGlite (tests). */
  DATABASE_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || /^(postgres|postgresql):\/\//.test(v) || v === "memory:", {
      message: "DATABASE_URL must be a postgres:// URL (or memory: for tests)",
    }),
  DATA_DIR: z.string().default(".data"),
  PORT: positiveInt(3000),
  /**
   * HTTP server processes of the production entry (scripts/serve.ts) on PostgreSQL; unset → the
   * number of cores. Embedded PGlite is always one process (only one may open its directory).
   */
  WEB_CONCURRENCY: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().positive().optional()),
  /** A client must send a request's headers within this time (slow-loris connections are closed). */
  HTTP_HEADERS_TIMEOUT_MS: positiveInt(10_000),
  /** A client must send a whole request, headers and body, within this time. */
  HTTP_REQUEST_TIMEOUT_MS: positiveInt(30_000),
  /** An idle keep-alive connection is closed after this time. */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: positiveInt(5_000),
  /**
   * Run the background work (embedded job runners, webhook fan-out, task runner) in this process.
   * The production entry turns it off in its HTTP workers: its primary process runs it once.
   */
  BACKGROUND_JOBS: flag.default(true),
  /** Public URL of the service, written to .data/demo.json and used in links. */
  PUBLIC_BASE_URL: z.string().url().optional(),
  RATE_LIMIT_PER_SECOND: positiveInt(25),
  /** The portals' tRPC calls: HTTP requests per one-second window, per signed-in user and per client address. */
  TRPC_RATE_LIMIT_PER_SECOND: positiveInt(50),
  /**
   * Proxies whose X-Forwarded-For hops are believed (docs/security.md#client-addresses-and-throttling):
   * addresses or CIDR ranges, comma-separated, and proxy-addr's names `loopback`, `linklocal`,
   * `uniquelocal`. Unset: a client's address is the connection's peer, whatever it sends.
   */
  TRUSTED_PROXIES: z
    .string()
    .optional()
    .transform((v) => (v ?? "").split(",").map((s) => s.trim()).filter(Boolean))
    .superRefine((list, ctx) => {
      try {
        proxyaddr.compile(list);
      } catch (error) {
        ctx.addIssue({ code: "custom", message: `not an address, CIDR range or proxy-addr name (${(error as Error).message})` });
      }
    }),
  /**
   * What this process compresses (gzip): unset, pages and static files (Next.js; read by next.config.ts),
   * while REST and tRPC answers go out uncompressed by the entry's direct path; true: everything (through
   * Next.js); false: nothing, for a proxy in front that compresses.
   */
  HTTP_COMPRESSION: z
    .enum(["1", "0", "true", "false", "yes", "no", "on", "off", ""])
    .default("")
    .transform((v): "pages" | "all" | "none" => (v === "" ? "pages" : ["1", "true", "yes", "on"].includes(v) ? "all" : "none")),
  /** Portal session secret (next-auth). Unset → generated once and kept in DATA_DIR/secrets.json. */
  AUTH_SECRET: z.string().min(32).optional(),
  /** 32-byte key (hex or base64) that encrypts webhook secrets at rest. Unset → generated like AUTH_SECRET. */
  ENCRYPTION_KEY: z.string().min(32).optional(),
  /** Create the sandbox organisation on an empty database at start-up. */
  SEED_ON_START: flag.default(true),
  /**
   * Let destinations a user or key supplies (webhook targets, pharmacy-system connectors) reach
   * loopback, private and link-local addresses (server/http/target-guard.ts). Local development only.
   */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: flag,
  WEBHOOK_RETRY_BASE_MS: positiveInt(10_000),
  WEBHOOK_RETRY_MAX_MS: positiveInt(600_000),
  WEBHOOK_TIMEOUT_MS: positiveInt(30_000),
  /** Attempts in flight at once per subscription (per server process): one slow endpoint holds only its own slots. */
  WEBHOOK_SUBSCRIPTION_CONCURRENCY: positiveInt(4),
  /** The ceiling per target origin (scheme, host, port) over all its subscriptions: one receiver host is not flooded. */
  WEBHOOK_TARGET_CONCURRENCY: positiveInt(16),
  /** Attempts in flight at once in one server process (embedded runner). */
  WEBHOOK_CONCURRENCY: positiveInt(64),
  /** Delivery logs (deliveries, attempts, their outbox events) are kept this many days after they end. */
  WEBHOOK_LOG_RETENTION_DAYS: positiveInt(30),
  /** First retry delay of a failed background task (prescription.render, …); ×4 per further attempt, 5 attempts. */
  TASK_RETRY_BASE_MS: positiveInt(5_000),
  /**
   * How often the embedded runner looks for due appointment reminders (appointment_reminder_due).
   * A reminder goes out at most this long after it is due; a minute is what the product promises
   * (Inngest's cron runs every minute whatever this says). Lower for tests that watch a reminder
   * arrive (e2e/appointments.spec.ts) instead of waiting up to a minute for the next tick; each tick
   * is one indexed query when nothing is due.
   */
  APPOINTMENT_REMINDER_TICK_MS: positiveInt(60_000),
  /**
   * The period of every scheduled job of the embedded runner (server/jobs/embedded-runner.ts), instead
   * of each job's own (status check 5 minutes, log retention an hour, the others a minute): for tests
   * and the machines benchmark, which must see many periods. Unset: each job's own. Inngest's crons
   * keep their schedule.
   */
  SCHEDULED_JOB_PERIOD_MS: z.preprocess((v) => (v === "" ? undefined : v), z.coerce.number().int().positive().optional()),
  /** PEM bundle (the text itself, or a file path) of the CAs whose qualified signatures inline prescriptions may carry. */
  QES_TRUST_ANCHORS: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined)),
  /**
   * Apple Wallet passes: the pass type identifier and team identifier of the signer certificate, and
   * the signer certificate, its private key (and passphrase) and Apple's WWDR intermediate, each the
   * PEM text itself or a file path. Without the three PEMs the service signs with its own sandbox
   * chain under DATA_DIR/wallet (passes that Apple devices will not accept; docs/decisions/patients.md#wallet-passes).
   */
  WALLET_PASS_TYPE_IDENTIFIER: z.string().trim().min(1).default("pass.example.rx-sandbox"),
  WALLET_TEAM_IDENTIFIER: z.string().trim().min(1).default("RXSANDBOX1"),
  WALLET_SIGNER_CERT: optionalText,
  WALLET_SIGNER_KEY: optionalText,
  WALLET_SIGNER_KEY_PASSPHRASE: optionalText,
  WALLET_WWDR_CERT: optionalText,
  /**
   * The APNs host that pass updates are pushed to (host or host:port). Unset: api.push.apple.com when
   * the signer certificate is configured; no pushes with the sandbox chain (Apple would refuse it).
   */
  WALLET_APNS_HOST: optionalText,
  /** Extra CA (PEM text or path) trusted for the APNs host's TLS certificate: a relay or a test server. */
  WALLET_APNS_CA: optionalText,
  /**
   * The SMTP relay e-mail goes out through (docs/decisions/operations.md#e-mail): smtp://user:pass@host:587
   * (STARTTLS when the server offers it) or smtps://…:465 (TLS from the start); credentials
   * URL-encoded. Unset: no mailer, and invitation and reset links are shown to the admin as before.
   * A secret: never logged, and a refusal names the variable, not its value.
   */
  SMTP_URL: z
    .string()
    .trim()
    .optional()
    .transform((v) => (v ? v : undefined))
    .refine((v) => v === undefined || /^smtps?:\/\/[^/?#\s]+/i.test(v), { message: "must be an smtp:// or smtps:// URL" })
    .refine((v) => v === undefined || URL.canParse(v), { message: "is not a valid URL" }),
  /** The sender of every e-mail: an address, or a name and address ("Rx Platform <no-reply@example.com>"). */
  MAIL_FROM: optionalText.refine((v) => v === undefined || /^(?:[^<>]*<[^<>@\s]+@[^<>@\s]+>|[^<>@\s]+@[^<>@\s]+)$/.test(v), {
    message: "must be an address (no-reply@example.com) or a name and address (Rx Platform <no-reply@example.com>)",
  }),
  /** Inngest Cloud or a self-hosted Inngest server drives background work when configured. */
  INNGEST_EVENT_KEY: z.string().optional(),
  INNGEST_SIGNING_KEY: z.string().optional(),
  INNGEST_BASE_URL: z.string().url().optional(),
});

export type Config = z.infer<typeof schema> & { baseUrl: string; inngestConfigured: boolean };

let cached: Config | undefined;

export function config(): Config {
  if (!cached) cached = parseConfig(process.env);
  return cached;
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = schema
    .refine((c) => [c.WALLET_SIGNER_CERT, c.WALLET_SIGNER_KEY, c.WALLET_WWDR_CERT].filter(Boolean).length % 3 === 0, {
      message: "set WALLET_SIGNER_CERT, WALLET_SIGNER_KEY and WALLET_WWDR_CERT together (or none: the sandbox chain)",
      path: ["WALLET_SIGNER_CERT"],
    })
    .refine((c) => !c.SMTP_URL || c.MAIL_FROM, { message: "set MAIL_FROM (the sender address) with SMTP_URL", path: ["MAIL_FROM"] })
    .safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const c = result.data;
  return {
    ...c,
    baseUrl: c.PUBLIC_BASE_URL ?? `http://localhost:${c.PORT}`,
    inngestConfigured: Boolean(c.INNGEST_BASE_URL || (c.INNGEST_EVENT_KEY && c.INNGEST_SIGNING_KEY)),
  };
}

/** Tests change the environment between cases; this makes the next config() call read it again. */
export function reloadConfig(): void {
  cached = undefined;
}
