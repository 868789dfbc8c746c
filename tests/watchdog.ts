/**
 * A hard time limit per test file. A test that blocks its event loop (a synchronous spin, such as a
 * WASM call that never returns) stops every timer of its process: vitest's testTimeout and
 * hookTimeout never fire and the run waits for ever. A worker thread has an event loop of its own,
 * so it is the watchdog: past the limit it writes the file's name (and the test that was running) to
 * stderr and kills the test process, and vitest fails the run ("Worker exited unexpectedly").
 *
 * TEST_FILE_TIME_LIMIT_S: seconds per test file (default 600; 0 turns the watchdog off).
 */
import path from "node:path";
import { Worker } from "node:worker_threads";
import { afterAll, afterEach, beforeEach, expect } from "vitest";

const limitSeconds = Number(process.env.TEST_FILE_TIME_LIMIT_S ?? 600);
const file = path.relative(process.cwd(), expect.getState().testPath ?? "unknown test file");

// The running test's name, shared with the thread: its length, then its UTF-8 bytes.
const shared = new SharedArrayBuffer(4 + 1024);
const nameLength = new Int32Array(shared, 0, 1);
const nameBytes = new Uint8Array(shared, 4);

function setRunningTest(name: string): void {
  const { written } = new TextEncoder().encodeInto(name, nameBytes);
  Atomics.store(nameLength, 0, written);
}

// CommonJS evaluated by the thread; fs.writeSync, because the thread's process.stderr is relayed
// through the (blocked) main thread.
const watchdogSource = `
const { workerData } = require("node:worker_threads");
const { writeSync } = require("node:fs");
const { file, limitSeconds, shared } = workerData;
setTimeout(() => {
  const length = Atomics.load(new Int32Array(shared, 0, 1), 0);
  const test = Buffer.from(new Uint8Array(shared, 4, length)).toString("utf8");
  writeSync(2, "\\n[test watchdog] " + file + " ran past its limit of " + limitSeconds + " s" +
    (test ? " in test \\"" + test + "\\"" : "") + " (TEST_FILE_TIME_LIMIT_S); killing its test process.\\n");
  process.kill(process.pid, "SIGKILL");
}, limitSeconds * 1000);
`;

if (limitSeconds > 0) {
  const watchdog = new Worker(watchdogSource, { eval: true, workerData: { file, limitSeconds, shared } });
  // The thread must not keep a finished test process alive.
  watchdog.unref();
  beforeEach((context) => setRunningTest(context.task.name));
  afterEach(() => setRunningTest(""));
  afterAll(async () => {
    await watchdog.terminate();
  });
}
