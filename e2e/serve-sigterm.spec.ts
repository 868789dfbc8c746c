/**
 * Issue 23 (the README on a fresh clone): stopping the first-run server — `npm start` on a fresh
 * DATA_DIR — with SIGTERM to its process group must end it, without SIGKILL. The production build
 * exists here (Playwright's web server made it), so `npm start` serves at once. The server is a
 * second one, on a port and DATA_DIR of its own, on the embedded database as on a fresh clone.
 * The deadlines are hang guards, not speed bounds.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, createServer, type AddressInfo, type Socket } from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

const HANG_GUARD_MS = 90_000;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Resolves with the exit (code or signal) of the group's leader; null when the guard runs out. */
const exited = (child: ChildProcess, guardMs: number) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null } | null>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve({ code: child.exitCode, signal: child.signalCode });
    const guard = setTimeout(() => resolve(null), guardMs);
    child.once("exit", (code, signal) => (clearTimeout(guard), resolve({ code, signal })));
  });

/** True while any process of the group is alive (signal 0 to the group). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

async function groupGone(pgid: number, guardMs: number): Promise<boolean> {
  const end = Date.now() + guardMs;
  while (groupAlive(pgid)) {
    if (Date.now() > end) return false;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}

test.describe("stopping the first-run server", () => {
  test.setTimeout(4 * HANG_GUARD_MS);

  for (const when of ["once it is ready", "while it starts"] as const) {
    test(`npm start ends on SIGTERM to its process group, ${when}`, async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), "rx-sigterm-"));
      const port = await freePort();
      // A fresh clone's first run: the embedded database (no DATABASE_URL).
      const { DATABASE_URL: _, ...inherited } = process.env;
      const env = { ...inherited, PORT: String(port), DATA_DIR: dataDir, PUBLIC_BASE_URL: `http://127.0.0.1:${port}` };
      const child = spawn("npm", ["start"], { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
      child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
      const pgid = child.pid!;
      try {
        if (when === "once it is ready") {
          await expect
            .poll(async () => (await fetch(`http://127.0.0.1:${port}/`).catch(() => null))?.status ?? 0, { timeout: HANG_GUARD_MS })
            .toBe(200);
        } else {
          // The server's own start-up has begun (its first log line), the seed has not finished.
          await expect.poll(() => output.includes("client addresses"), { timeout: HANG_GUARD_MS }).toBe(true);
        }
        process.kill(-pgid, "SIGTERM");
        const exit = await exited(child, HANG_GUARD_MS);
        expect(exit, `npm start did not end after SIGTERM:\n${output.slice(-2000)}`).not.toBeNull();
        expect(await groupGone(pgid, HANG_GUARD_MS), "a process of the group outlived SIGTERM").toBe(true);
      } finally {
        if (groupAlive(pgid)) process.kill(-pgid, "SIGKILL");
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  }
});

/**
 * Issue 33: Ctrl-C in the terminal sends SIGINT to the whole process group, tsx's compiler process
 * too. On a cold tsx cache (a TMPDIR of its own: tsx keeps its cache there) a shutdown that still
 * had a module to compile hung for ever. 25 s is the bound for the graceful stop; "at once"
 * for a second Ctrl-C is given 5 s.
 */
/** A POST whose body is announced and never sent: a request in flight until its socket closes. */
async function heldRequest(port: number): Promise<Socket> {
  const socket = connect(port, "127.0.0.1");
  await new Promise((resolve) => socket.once("connect", resolve));
  socket.write("POST /api/auth/callback/credentials HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 1000\r\n\r\nemail=");
  socket.on("error", () => undefined);
  await new Promise((r) => setTimeout(r, 300));
  return socket;
}

test.describe("Ctrl-C on a cold tsx cache", () => {
  test.setTimeout(4 * HANG_GUARD_MS);

  for (const presses of [1, 2] as const) {
    test(presses === 1 ? "npm start ends within 25 s of SIGINT" : "a second SIGINT ends npm start at once", async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), "rx-sigint-"));
      const tmpDir = mkdtempSync(path.join(os.tmpdir(), "rx-sigint-tmp-"));
      const port = await freePort();
      const { DATABASE_URL: _, ...inherited } = process.env;
      const env = { ...inherited, TMPDIR: tmpDir, PORT: String(port), DATA_DIR: dataDir, PUBLIC_BASE_URL: `http://127.0.0.1:${port}` };
      const child = spawn("npm", ["start"], { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
      child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
      const pgid = child.pid!;
      let held: Socket | undefined;
      try {
        await expect
          .poll(async () => (await fetch(`http://127.0.0.1:${port}/`).catch(() => null))?.status ?? 0, { timeout: 3 * HANG_GUARD_MS })
          .toBe(200);
        // With a second press the graceful stop must still be running: a request whose body never
        // comes stays in flight, and the stop waits up to 20 s for it.
        held = presses === 2 ? await heldRequest(port) : undefined;
        process.kill(-pgid, "SIGINT");
        if (presses === 2) {
          await new Promise((r) => setTimeout(r, 500));
          expect(child.exitCode, "the graceful stop waits for the request in flight").toBeNull();
          process.kill(-pgid, "SIGINT");
        }
        const exit = await exited(child, presses === 1 ? 25_000 : 5_000);
        expect(exit, `npm start did not end after ${presses} SIGINT:\n${output.slice(-2000)}`).not.toBeNull();
        expect(output).not.toContain("unhandledRejection");
        expect(await groupGone(pgid, HANG_GUARD_MS), "a process of the group outlived SIGINT").toBe(true);
      } finally {
        if (groupAlive(pgid)) process.kill(-pgid, "SIGKILL");
        rmSync(dataDir, { recursive: true, force: true });
        rmSync(tmpDir, { recursive: true, force: true });
        held?.destroy();
      }
    });
  }
});
