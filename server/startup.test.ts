import { afterAll, describe, expect, it } from "vitest";
import { reloadConfig } from "@/server/config";
import { startService, stopService } from "./startup";

const running = () => {
  const g = globalThis as { __rxWebhookRunner?: unknown; __rxTaskRunner?: unknown; __rxEmbeddedJobs?: unknown };
  return { webhooks: Boolean(g.__rxWebhookRunner), tasks: Boolean(g.__rxTaskRunner), scheduled: Boolean(g.__rxEmbeddedJobs) };
};

afterAll(() => {
  delete process.env.BACKGROUND_JOBS;
  reloadConfig();
});

describe("start-up of a server process", () => {
  it("starts no background work where BACKGROUND_JOBS is off (the production entry's HTTP workers)", async () => {
    process.env.BACKGROUND_JOBS = "false";
    reloadConfig();
    await startService();
    expect(running()).toEqual({ webhooks: false, tasks: false, scheduled: false });
  });

  it("starts it once where it is on (the primary, or the one process on the embedded database), and stops it", async () => {
    process.env.BACKGROUND_JOBS = "true";
    reloadConfig();
    await startService();
    await startService();
    expect(running()).toEqual({ webhooks: true, tasks: true, scheduled: true });
    await stopService();
    expect(running()).toEqual({ webhooks: false, tasks: false, scheduled: false });
  });
});
