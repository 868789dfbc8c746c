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

/** The automatic status check every five minutes; a tick while a run is still going is skipped. */
export const pharmacyStatusCheck = inngest.createFunction(
  {
    id: PHARMACY_STATUS_CHECK_JOB.id,
    name: "Pharmacy status check",
    triggers: [cron(PHARMACY_STATUS_CHECK_JOB.cron)],
    singleton: { mode: "skip" },
    // The next tick in five minutes is the retry; a failed run changes nothing half-way (one transaction per order).
    retries: 1,
  },
  async ({ step }) => step.run("check-pharmacy-order-statuses", () => runPharmacyStatusCheck()),
);

export const pharmacyOrderTallyCompaction = inngest.createFunction(
  {
    id: TALLY_COMPACTION_JOB.id,
    name: "Pharmacy order tally compaction",
    triggers: [cron(TALLY_COMPACTION_JOB.cron)],
    singleton: { mode: "skip" },
    retries: 1,
  },
  async ({ step }) => step.run("compact-pharmacy-order-tally", () => runTallyCompaction()),
);

export const inngestFunctions = [pharmacyStatusCheck, pharmacyOrderTallyCompaction];
