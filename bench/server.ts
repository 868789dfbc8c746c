import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { execFileSync } from "node:child_process";

/** Builds once when needed and runs the production server (`next start`) for a benchmark. */
export function ensureBuild(force = false) {
  if (force || !existsSync(".next/BUILD_ID")) {
    console.log("building (next build)…");
    execFileSync("npx", ["next", "build"], { stdio: "inherit" });
  }
}

export async function startServer(
  env: Record<string, string>,
  port: number,
): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  // BENCH_SERVER_NODE_ARGS goes to the server's Node (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
  const nodeArgs = process.env.BENCH_SERVER_NODE_ARGS?.split(" ").filter(Boolean) ?? [];
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, "node_modules/next/dist/bin/next", "start", "-p", String(port)], {
    // BENCH_SERVER_LOG_LEVEL=info shows the server's logs (on stderr); silent by default.
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      LOG_LEVEL: process.env.BENCH_SERVER_LOG_LEVEL ?? "silent",
    },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
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
    /** Also the process group of the server and its children. */
    pid: child.pid!,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once("exit", () => resolve());
        process.kill(-child.pid!, "SIGTERM");
      }),
  };
}
