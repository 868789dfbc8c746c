import { spawn, spawnSync, type ChildProcess } from "node:child_process";

/** Builds when the build is missing or stale (the production entry's own check), or always with --build. */
export function ensureBuild(force = false) {
  const args = ["--import", "tsx", "-e", `import("./scripts/serve/plan.ts").then((m) => process.exit(m.buildIsCurrent(process.cwd()) ? 0 : 1))`];
  if (!force && spawnSync(process.execPath, args, { stdio: "inherit" }).status === 0) return;
  console.log("building (npm run build)…");
  const build = spawnSync(process.execPath, ["--import", "tsx", "scripts/serve.ts", "--build"], { stdio: "inherit" });
  if (build.status !== 0) throw new Error("build failed");
}

type Started = { url: string; pid: number; stop: () => Promise<void> };

/** Spawns `args` under Node in its own process group (in `cwd`, default this one) and waits until `${url}/` answers 200. */
export async function spawnServer(args: string[], env: Record<string, string>, port: number, cwd?: string): Promise<Started> {
  // BENCH_SERVER_NODE_ARGS goes to the server's Node (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof"); cluster workers inherit it.
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, ...args], {
    // BENCH_SERVER_LOG_LEVEL=info shows the server's logs (on stderr); silent by default.
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: process.env.BENCH_SERVER_LOG_LEVEL ?? "silent" },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
    cwd,
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      const r = await fetch(`${url}/`);
      if (r.status === 200) break;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error("server did not start within 120 s");
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    await new Promise((r) => setTimeout(r, 300));
  }
  return {
    url,
    /** Also the process group of the server and its children (cluster workers). */
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        process.kill(-child.pid!, "SIGTERM");
      }),
  };
}

/**
 * The production server as `npm run serve` runs it (scripts/serve.ts: on PostgreSQL a primary with
 * the background work and WEB_CONCURRENCY HTTP workers; on PGlite one process). WEB_CONCURRENCY
 * defaults to 1 here, so every row is one process unless the scenario says otherwise. `cwd`: another
 * checkout with its own build, to compare two commits in one run (the scale scenario's
 * BENCH_SCALE_COMPARE_DIR).
 */
export function startServer(env: Record<string, string>, port: number, cwd?: string): Promise<Started> {
  return spawnServer(["--import", "tsx", "scripts/serve.ts", "--no-build", "--port", String(port)], { WEB_CONCURRENCY: "1", ...env }, port, cwd);
}
