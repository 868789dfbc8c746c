import cluster from "node:cluster";
import net from "node:net";
import ipaddr from "ipaddr.js";
import { RateLimiterMemory } from "rate-limiter-flexible";
import { config } from "@/server/config";
import { log } from "@/server/log";

/**
 * Fixed one-second windows (rate-limiter-flexible's memory limiter), counted separately per API key
 * and per client address; a request over either limit is refused. In one process, or, for the HTTP
 * workers of the production entry (scripts/serve.ts), in its primary process, which counts for all
 * of them, so the limit holds however connections spread over the workers.
 *
 * The workers ask the primary with one IPC message per event-loop turn, carrying every question
 * asked in it (a request's subjects each), rather than through the library's cluster mode, which
 * sends a message and arms a timer per subject and cost a worker about 0.4 ms of CPU per request
 * (two subjects) in a profile of the list. A message is a system call on each side: under load a
 * turn serves several requests, and they share one (a fifth of intake's rate-limit cost at 20
 * clients).
 */
let windowSeconds = 1;

/**
 * Tests only: hold each window (of RATE_LIMIT_PER_SECOND requests) open longer than a second, so that
 * the requests a test sends to reach a limit all fall into one window however slowly a loaded
 * machine serves them (a window starts at a subject's first request and ends a second later).
 * A changed window starts from fresh counts.
 */
export function holdRateLimitWindowForTests(seconds = 1): void {
  windowSeconds = seconds;
}

function limiterFor(limiters: Map<string, RateLimiterMemory>, perSecond: number): RateLimiterMemory {
  // One limiter per limit: a changed RATE_LIMIT_PER_SECOND (tests) starts from fresh counts.
  const key = `${perSecond}/${windowSeconds}`;
  let limiter = limiters.get(key);
  if (!limiter) limiters.set(key, (limiter = new RateLimiterMemory({ points: perSecond, duration: windowSeconds })));
  return limiter;
}

/** Consumes one point of each subject (every subject is counted, also when another is over); false when any is over. */
export async function consumeEach(limiter: RateLimiterMemory, subjects: readonly string[]): Promise<boolean> {
  const results = await Promise.allSettled(subjects.map((subject) => limiter.consume(subject)));
  return results.every((r) => r.status === "fulfilled");
}

const local = new Map<string, RateLimiterMemory>();

type Ask = { id: number; subjects: readonly string[]; perSecond: number };
type Questions = { rx: "rate-limit"; asks: Ask[] };
type Answers = { rx: "rate-limit"; answers: { id: number; ok: boolean }[] };

/** In the entry's primary: answers its HTTP workers' rate-limit questions from one counter, in the order asked. */
export function countRateLimitsForWorkers(): void {
  const limiters = new Map<string, RateLimiterMemory>();
  cluster.on("message", async (worker, message: Questions) => {
    if (message?.rx !== "rate-limit") return;
    const answers: Answers["answers"] = [];
    for (const ask of message.asks) answers.push({ id: ask.id, ok: await consumeEach(limiterFor(limiters, ask.perSecond), ask.subjects) });
    worker.send({ rx: "rate-limit", answers } satisfies Answers);
  });
}

/** A worker's questions to the primary, answered in order; unanswered for a second → let through (logged). */
const asked = new Map<number, { resolve: (ok: boolean) => void; at: number }>();
let primaryAnswerMs = 1_000;

/** Tests only: wait longer for the primary's answer, so a loaded machine does not let requests through uncounted. */
export function waitForPrimaryForTests(ms: number): void {
  primaryAnswerMs = ms;
}
let nextQuestion = 0;
let listening = false;
/** The questions of this event-loop turn, sent together at its end (setImmediate). */
let unsent: Ask[] = [];

function sendQuestions(): void {
  const asks = unsent;
  unsent = [];
  process.send!({ rx: "rate-limit", asks } satisfies Questions);
}

function askPrimary(subjects: readonly string[], perSecond: number): Promise<boolean> {
  if (!listening) {
    listening = true;
    process.on("message", (message: Answers) => {
      if (message?.rx !== "rate-limit") return;
      for (const { id, ok } of message.answers) {
        asked.get(id)?.resolve(ok);
        asked.delete(id);
      }
    });
    setInterval(() => {
      const late = Date.now() - primaryAnswerMs;
      for (const [id, question] of asked) {
        if (question.at > late) continue;
        asked.delete(id);
        log.warn("rate limit not counted: the primary process did not answer in time");
        question.resolve(true);
      }
    }, 500).unref();
  }
  const id = ++nextQuestion;
  return new Promise((resolve) => {
    asked.set(id, { resolve, at: Date.now() });
    if (unsent.push({ id, subjects, perSecond }) === 1) setImmediate(sendQuestions);
  });
}

/** The entry's HTTP workers (RX_SERVE_ROLE=http) count in the primary; anything else counts here. */
const countsInPrimary = () => cluster.isWorker && process.env.RX_SERVE_ROLE === "http" && typeof process.send === "function";

/**
 * Consumes one request for each subject; false when any of them is over its limit (per second:
 * RATE_LIMIT_PER_SECOND unless a door has its own). Subjects are prefixed by what they count
 * (`addr:`, `key:`, `trpc-user:`…), so doors with the same limit never share a count.
 */
export async function withinRateLimit(subjects: string[], perSecond = config().RATE_LIMIT_PER_SECOND): Promise<boolean> {
  return countsInPrimary() ? askPrimary(subjects, perSecond) : consumeEach(limiterFor(local, perSecond), subjects);
}

/** The per-address limit alone, for doors outside the REST kit that take no API key (wallet pass downloads, PassKit). */
export const withinAddressRateLimit = (request: Request) => withinRateLimit([`addr:${clientAddress(request)}`]);

/**
 * The header that carries the client's address to the handlers. The production entry
 * (scripts/serve/client-address.ts) sets it on every request, overwriting what the client sent:
 * one address, the connection's peer or the hop a trusted proxy reported. Next.js, which fills
 * X-Forwarded-For only when absent, keeps it.
 */
export const CLIENT_ADDRESS_HEADER = "x-forwarded-for";

/**
 * The client as the per-address limits count it: the address the entry set; an IPv6 address by its
 * /64 (one subscriber's network: a host picks any address in it). A value that is not one address
 * (no entry in front, as under `next dev`, forwarded what the client wrote) counts as "unknown":
 * forged values share one counter instead of each getting a fresh one.
 */
export function clientAddress(request: { headers: Headers }): string {
  const value = request.headers.get(CLIENT_ADDRESS_HEADER)?.trim() ?? "";
  if (net.isIP(value) === 0) return "unknown";
  const address = ipaddr.process(value);
  if (address instanceof ipaddr.IPv4) return address.toString();
  return `${new ipaddr.IPv6([...address.parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
}
