/** E-mail in Vitest files: the SMTP stand-in (tests/smtp-server.ts) as this file's relay, and task runners that send. */
import { afterAll, afterEach, beforeAll } from "vitest";
import { reloadConfig } from "@/server/config";
import { TaskRunner } from "@/server/jobs/task-runner";
import { startSmtpServer, type ReceivedMail, type SmtpStandIn } from "./smtp-server";
import { until } from "./wait";

/**
 * For a test file that sends e-mail: the stand-in relay started once, SMTP_URL and MAIL_FROM
 * pointing at it, short task retry delays (100 ms, ×4 per attempt); task runners started by the
 * tests (`startRunner`) are stopped after each test.
 */
export function useSmtpRelay(options: { credentials?: { user: string; pass: string } } = {}) {
  let relay: SmtpStandIn | null = null;
  let runners: TaskRunner[] = [];
  const env = (url: string) => ({ SMTP_URL: url, MAIL_FROM: MAIL_FROM, TASK_RETRY_BASE_MS: "100" });
  beforeAll(async () => {
    relay = await startSmtpServer(options);
    Object.assign(process.env, env(relay.url));
    reloadConfig();
  });
  afterEach(async () => {
    await Promise.all(runners.map((r) => r.stop()));
    runners = [];
    relay!.answers.length = 0;
  });
  afterAll(async () => {
    for (const name of Object.keys(env(""))) delete process.env[name];
    reloadConfig();
    await relay?.stop();
  });
  return {
    get smtp(): SmtpStandIn {
      return relay!;
    },
    /** A background task runner over this file's database (the embedded mode), as a server process has. */
    async startRunner(): Promise<TaskRunner> {
      const runner = new TaskRunner({ mode: "run" });
      runners.push(runner);
      await runner.start();
      return runner;
    },
    /** The first message the relay accepted for `to`, waited for. */
    mailTo(to: string): Promise<ReceivedMail> {
      return until(async () => relay!.received.find((m) => m.to.includes(to)));
    },
  };
}

export const MAIL_FROM = "Rx Test <no-reply@rx.example>";
