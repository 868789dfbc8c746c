/**
 * Which browser specs each CI lane runs (scripts/ci/test.ts). The PGlite lane runs all of Vitest
 * first and the PostgreSQL lane its (shorter) Vitest pass last, so an even split of the specs leaves
 * one lane idle for minutes: specs are given, longest first, to the lane that would finish earlier
 * (the longest-processing-time rule), from the seconds each spec and each Vitest pass took in a
 * recent run (scripts/ci/e2e-durations.json, refreshed from `.data/ci/e2e-durations.json` that
 * every `npm run test:ci` writes). A spec not measured yet counts as `unmeasuredSeconds`.
 */
export type Durations = {
  /** Wall seconds of each lane's Vitest pass. */
  vitest: { pglite: number; postgres: number };
  /** Wall seconds of each spec file (its tests' sum), keyed by its path from the repository root. */
  specs: Record<string, number>;
};

/**
 * Specs that must run on the PostgreSQL lane: none now. (readme-examples.spec.ts was, for its
 * `npm run org` beside the server; on the embedded database it now runs that block as a reader does,
 * before the service starts, on a database of its own.)
 */
export const POSTGRES_ONLY: Record<string, string> = {};

export const unmeasuredSeconds = 30;

export function splitSpecs(
  specs: readonly string[],
  durations: Durations,
  postgresOnly: Record<string, string> = POSTGRES_ONLY,
): { pglite: string[]; postgres: string[] } {
  const seconds = (spec: string) => durations.specs[spec] ?? unmeasuredSeconds;
  const lanes = {
    pglite: { load: durations.vitest.pglite, specs: [] as string[] },
    postgres: { load: durations.vitest.postgres, specs: [] as string[] },
  };
  const pinned = specs.filter((s) => s in postgresOnly);
  for (const spec of pinned) (lanes.postgres.specs.push(spec), (lanes.postgres.load += seconds(spec)));
  const rest = specs.filter((s) => !(s in postgresOnly)).sort((a, b) => seconds(b) - seconds(a) || a.localeCompare(b));
  for (const spec of rest) {
    const lane = lanes.pglite.load <= lanes.postgres.load ? lanes.pglite : lanes.postgres;
    lane.specs.push(spec);
    lane.load += seconds(spec);
  }
  return { pglite: lanes.pglite.specs.sort(), postgres: lanes.postgres.specs.sort() };
}

/** Seconds per spec file from Playwright's list reporter lines ("✓  3 [chromium] › e2e/x.spec.ts:5:1 › name (12.5s)"). */
export function specSecondsFromListOutput(lines: readonly string[]): Record<string, number> {
  const totals: Record<string, number> = {};
  for (const line of lines) {
    const m = /[✓✘]\s+\d+ \[[^\]]+\] › (e2e\/[^:]+):\d+:\d+ › .*\((\d+(?:\.\d+)?)(ms|s|m)\)\s*$/.exec(line);
    if (!m) continue;
    const value = Number(m[2]) * (m[3] === "ms" ? 0.001 : m[3] === "m" ? 60 : 1);
    totals[m[1]] = Math.round(((totals[m[1]] ?? 0) + value) * 10) / 10;
  }
  return totals;
}
