/**
 * Run by server/auth/sign-in-throttle.test.ts (`tsx tests/sign-in-throttle-cluster.ts`): a primary
 * counting for two HTTP workers as the production entry does. Each worker records 5 failures for
 * the same e-mail and address; the primary's one count then blocks both. Prints one JSON line.
 */
import cluster from "node:cluster";
import { countSignInFailuresForWorkers, recordFailedSignIn, signInRetryAfterMs } from "@/server/auth/sign-in-throttle";

if (cluster.isPrimary) {
  countSignInFailuresForWorkers();
  const results: unknown[] = [];
  for (let i = 0; i < 2; i++) {
    const worker = cluster.fork({ RX_SERVE_ROLE: "http" });
    worker.on("message", (message: { result?: unknown }) => {
      if (!message?.result) return;
      results.push(message.result);
      worker.kill();
      if (results.length === 2) {
        console.log(JSON.stringify(results));
        process.exit(0);
      }
    });
  }
} else {
  const attempt = { email: "both@example.com", address: "192.0.2.1", device: null };
  const before = await signInRetryAfterMs(attempt);
  for (let i = 0; i < 5; i++) await recordFailedSignIn(attempt);
  // Wait until both workers have counted (10 in all), then ask.
  let after = 0;
  for (let tries = 0; tries < 50 && after === 0; tries++) {
    after = await signInRetryAfterMs(attempt);
    if (after === 0) await new Promise((r) => setTimeout(r, 100));
  }
  process.send!({ result: { before, after } });
}
