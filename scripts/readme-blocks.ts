/**
 * The README's shell blocks (```sh, ```bash), for the README tests: e2e/readme-examples.spec.ts runs
 * them in order against a started service; scripts/readme-blocks.test.ts checks that each pastes
 * into an interactive bash. A marker on one of the two lines before a block says how it is run:
 *
 *   <!-- readme-test: not run (reason) -->       skipped; the README shows the reason
 *   <!-- readme-test: before start (reason) -->  run as a reader does before `npm start`: on the
 *                                                embedded database, on a DATA_DIR of its own
 */
export type ReadmeBlock = { line: number; code: string; skipped: string | null; beforeStart: boolean };

export function readmeShellBlocks(readme: string): ReadmeBlock[] {
  const blocks: ReadmeBlock[] = [];
  const lines = readme.split("\n");
  const marker = (i: number, kind: string) => {
    const pattern = new RegExp(`<!-- readme-test: ${kind} \\((.+)\\) -->`);
    return pattern.exec(lines[i - 1] ?? "") ?? pattern.exec(lines[i - 2] ?? "");
  };
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(sh|bash)\s*$/.test(lines[i])) continue;
    const skipped = marker(i, "not run")?.[1] ?? null;
    const beforeStart = marker(i, "before start") !== null;
    const start = i + 1;
    while (i + 1 < lines.length && lines[++i] !== "```");
    blocks.push({ line: start, code: lines.slice(start, i).join("\n"), skipped, beforeStart });
  }
  return blocks;
}
