import { Inngest } from "inngest";

/**
 * The Inngest client. The SDK reads its settings from the same environment variables as
 * server/config.ts: INNGEST_EVENT_KEY, INNGEST_SIGNING_KEY and INNGEST_BASE_URL. INNGEST_BASE_URL
 * without a signing key means a local Inngest dev server (which signs nothing), so the client is
 * put in dev mode then; INNGEST_DEV=1 does the same. When none is set the jobs run in-process
 * instead (server/jobs/embedded-runner.ts, server/jobs/webhook-runner.ts).
 */
const devServer = Boolean(process.env.INNGEST_BASE_URL) && !process.env.INNGEST_SIGNING_KEY;

export const inngest = new Inngest({ id: "rx-fulfilment", ...(devServer ? { isDev: true } : {}) });
