/** Waiting in tests for work that happens in the background (runners, receivers). */
import { afterAll, beforeAll } from "vitest";
import { reloadConfig } from "@/server/config";

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `check` until it returns a truthy value (returned), or fails after `timeoutMs`. */
export async function until<T>(check: () => Promise<T | null | undefined | false>, timeoutMs = 60_000, everyMs = 20): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > end) throw new Error("condition not reached in time");
    await sleep(everyMs);
  }
}

/** Sets environment variables for the whole test file (configuration re-read), and removes them after. */
export function useEnv(vars: Record<string, string>): void {
  beforeAll(() => {
    Object.assign(process.env, vars);
    reloadConfig();
  });
  afterAll(() => {
    for (const name of Object.keys(vars)) delete process.env[name];
    reloadConfig();
  });
}
