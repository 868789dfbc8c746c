import { afterEach, describe, expect, it } from "vitest";
import { reloadConfig } from "@/server/config";
import { jobsProvider } from "./provider";

const INNGEST_ENV = ["INNGEST_BASE_URL", "INNGEST_EVENT_KEY", "INNGEST_SIGNING_KEY"] as const;

function providerWith(env: Partial<Record<(typeof INNGEST_ENV)[number], string>>) {
  Object.assign(process.env, env);
  reloadConfig();
  return jobsProvider();
}

afterEach(() => {
  for (const name of INNGEST_ENV) delete process.env[name];
  reloadConfig();
});

describe("jobs provider", () => {
  it("is this process's runners without Inngest settings", () => {
    expect(providerWith({})).toEqual({
      kind: "embedded",
      scheduledJobsInProcess: true,
      webhookAttemptsInProcess: true,
      taskMode: "run",
      servesInngestEndpoint: false,
      inngestDevServer: false,
    });
    expect(providerWith({ INNGEST_EVENT_KEY: "event-key" }).kind).toBe("embedded"); // no signing key: not Inngest Cloud
  });

  it("is Inngest with event and signing keys (Inngest Cloud)", () => {
    expect(providerWith({ INNGEST_EVENT_KEY: "event-key", INNGEST_SIGNING_KEY: "signkey-prod-1" })).toEqual({
      kind: "inngest",
      scheduledJobsInProcess: false,
      webhookAttemptsInProcess: false,
      taskMode: "announce",
      servesInngestEndpoint: true,
      inngestDevServer: false,
    });
  });

  it("is Inngest with a server URL: a dev server without a signing key, self-hosted with one", () => {
    expect(providerWith({ INNGEST_BASE_URL: "http://127.0.0.1:8288" })).toMatchObject({ kind: "inngest", inngestDevServer: true });
    expect(providerWith({ INNGEST_BASE_URL: "https://inngest.internal", INNGEST_SIGNING_KEY: "signkey-prod-1" })).toMatchObject({ kind: "inngest", inngestDevServer: false });
  });
});
