import { cron, Inngest } from "inngest";
import { runTallyCompaction, TALLY_COMPACTION_JOB } from "./pharmacy-order-tally";
import { PHARMACY_STATUS_CHECK_JOB, runPharmacyStatusCheck } from "./pharmacy-status-check";

/**
 * The Inngest client and the functions it serves (app/api/inngest). The SDK reads its settings
 * from the same environment variables as server/config.ts: INNGEST_EVENT_KEY, INNGEST_SIGNING_KEY
 * and INNGEST_BASE_URL. INNGEST_BASE_URL without a signing key means a local Inngest dev server
 * (which signs nothing), so the client is put in dev mode then; INNGEST_DEV=1 does the same. When
 * none is set the jobs run in-process instead (server/jobs/embedded-runner.ts).
 */
const devServer = Boolean(process.env.INNGEST_BASE_URL) && !process.env.INNGEST_SIGNING_KEY;

export const inngest = new Inngest({ id: "rx-fulfilment", ...(devServer ? { isDev: true } : {}) });

/**
 * A scheduled job as an Inngest cron function, on the same schedule as the embedded runner. A tick
 * while a run is still going is skipped; the next tick is the retry (each job changes nothing
 * half-way: one transaction per order or statement).
 */
function cronFunction(job: { id: string; cron: string }, name: string, run: () => Promise<unknown>) {
  return inngest.createFunction(
    { id: job.id, name, triggers: [cron(job.cron)], singleton: { mode: "skip" }, retries: 1 },
    async ({ step }) => step.run(job.id, run),
  );
}

export const pharmacyStatusCheck = cronFunction(PHARMACY_STATUS_CHECK_JOB, "Pharmacy status check", () => runPharmacyStatusCheck());
export const pharmacyOrderTallyCompaction = cronFunction(TALLY_COMPACTION_JOB, "Pharmacy order tally compaction", runTallyCompaction);

export const inngestFunctions = [pharmacyStatusCheck, pharmacyOrderTallyCompaction];
