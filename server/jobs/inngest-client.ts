import { Inngest } from "inngest";
import { jobsProvider } from "./provider";

/**
 * The Inngest client. The SDK reads its settings from the same environment variables as
 * server/config.ts: INNGEST_EVENT_KEY, INNGEST_SIGNING_KEY and INNGEST_BASE_URL. With a local Inngest
 * dev server (which signs nothing) the client is put in dev mode; INNGEST_DEV=1 does the same.
 * Whether Inngest drives background work at all is decided in server/jobs/provider.ts.
 */
export const inngest = new Inngest({ id: "rx-fulfilment", ...(jobsProvider().inngestDevServer ? { isDev: true } : {}) });
