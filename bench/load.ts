/** A closed-loop HTTP load: `concurrency` clients each send the next request when the last answered. */
export type LoadResult = { requests: number; errors: number; rps: number; p50: number; p95: number; p99: number };

export async function runLoad(options: {
  concurrency: number;
  durationMs: number;
  warmupMs?: number;
  request: (i: number) => Promise<Response>;
  expectStatus?: number;
}): Promise<LoadResult> {
  const { concurrency, durationMs, warmupMs = 1000, request, expectStatus = 200 } = options;
  const latencies: number[] = [];
  let errors = 0;
  let counter = 0;
  let recording = false;
  const startedAt = performance.now();
  const warmEnd = startedAt + warmupMs;
  const end = warmEnd + durationMs;
  let measuredStart = warmEnd;

  async function client() {
    while (performance.now() < end) {
      const t0 = performance.now();
      let ok = false;
      try {
        const response = await request(counter++);
        await response.arrayBuffer();
        ok = response.status === expectStatus;
      } catch {
        ok = false;
      }
      const t1 = performance.now();
      if (t0 >= warmEnd) {
        if (!recording) {
          recording = true;
          measuredStart = t0;
        }
        latencies.push(t1 - t0);
        if (!ok) errors++;
      }
    }
  }
  await Promise.all(Array.from({ length: concurrency }, client));
  const elapsed = (performance.now() - measuredStart) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] : NaN);
  return {
    requests: latencies.length,
    errors,
    rps: latencies.length / elapsed,
    p50: pct(0.5),
    p95: pct(0.95),
    p99: pct(0.99),
  };
}

/**
 * An open-loop load: requests sent at a fixed offered rate whatever the answers do (new clients keep
 * arriving when the server is slow, as they do in production). Each latency counts from the moment
 * the request was due, so a server that falls behind shows it (no coordinated omission).
 */
export async function runOpenLoop(options: {
  rate: number;
  durationMs: number;
  warmupMs?: number;
  request: (i: number) => Promise<Response>;
  expectStatus?: number;
}): Promise<LoadResult & { offered: number }> {
  const { rate, durationMs, warmupMs = 1000, request, expectStatus = 200 } = options;
  const latencies: number[] = [];
  let errors = 0;
  const startedAt = performance.now() + 10;
  const total = Math.round(((warmupMs + durationMs) / 1000) * rate);
  const warmCount = Math.round((warmupMs / 1000) * rate);
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < total; i++) {
    const due = startedAt + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    inFlight.push(
      (async () => {
        let ok = false;
        try {
          const response = await request(i);
          await response.arrayBuffer();
          ok = response.status === expectStatus;
        } catch {
          ok = false;
        }
        if (i >= warmCount) {
          latencies.push(performance.now() - due);
          if (!ok) errors++;
        }
      })(),
    );
  }
  await Promise.all(inFlight);
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => (latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] : NaN);
  return { offered: rate, requests: latencies.length, errors, rps: (latencies.length * 1000) / durationMs, p50: pct(0.5), p95: pct(0.95), p99: pct(0.99) };
}
