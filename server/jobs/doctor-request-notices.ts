import { sendDoctorRequestNotices } from "@/server/domain/prescriptions/request-notices";
import { log } from "@/server/log";

/** E-mails doctors who asked for it about new waiting requests, every minute, on Inngest or in-process. */
export const DOCTOR_REQUEST_NOTICE_JOB = { id: "doctor-request-notices", cron: "* * * * *", everyMs: 60_000 } as const;

export async function runDoctorRequestNotices(now = new Date()): Promise<{ sent: number }> {
  const result = await sendDoctorRequestNotices(now);
  if (result.sent > 0) log.info("new-request e-mails queued", { job: DOCTOR_REQUEST_NOTICE_JOB.id, ...result });
  return result;
}
