import { config } from "@/server/config";

/**
 * Who drives background work: Inngest when it is configured (event and signing keys, or a
 * self-hosted Inngest server URL), else the embedded runners of this process. This is the only
 * place that asks; config() is read once per process, so the answer holds while it runs (tests
 * re-read it with reloadConfig). Each field says what differs for the code that asks.
 */
export type JobsProvider = {
  kind: "inngest" | "embedded";
  /** Scheduled jobs run on timers in this process; with Inngest its cron functions run them. */
  scheduledJobsInProcess: boolean;
  /** The webhook runner makes the attempts here; with Inngest it only fans out and announces each delivery. */
  webhookAttemptsInProcess: boolean;
  /** Background tasks: run by this process's task runner, or leased and announced to Inngest. */
  taskMode: "run" | "announce";
  /** /api/inngest serves Inngest's sync and run requests; without Inngest the path is a 404. */
  servesInngestEndpoint: boolean;
  /** A local Inngest dev server (INNGEST_BASE_URL without a signing key) signs nothing: the client runs in dev mode. */
  inngestDevServer: boolean;
};

export function jobsProvider(): JobsProvider {
  const c = config();
  const inngest = c.inngestConfigured;
  return {
    kind: inngest ? "inngest" : "embedded",
    scheduledJobsInProcess: !inngest,
    webhookAttemptsInProcess: !inngest,
    taskMode: inngest ? "announce" : "run",
    servesInngestEndpoint: inngest,
    inngestDevServer: Boolean(c.INNGEST_BASE_URL) && !c.INNGEST_SIGNING_KEY,
  };
}
