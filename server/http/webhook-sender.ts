import net from "node:net";
import { guardedRequest } from "./guarded-client";
import { BlockedTargetError, parseOutgoingTarget, resolvePublicAddresses } from "./target-guard";

export type SendOutcome = {
  ok: boolean;
  durationMs: number;
  status: number | null;
  /** Why a send failed: timeout, connection, tls, redirect, http_status, blocked_target. */
  errorClass: string | null;
  /** A short description for the delivery log; never contains the body or headers. */
  errorMessage: string | null;
};

const isClosedConnection = (error: unknown): boolean =>
  ["UND_ERR_SOCKET", "ECONNRESET", "EPIPE"].includes(String((error as { code?: unknown })?.code ?? ""));

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH)/;

function classify(error: unknown, timedOut: boolean): { errorClass: string; errorMessage: string } {
  const chain: unknown[] = [];
  for (let e: unknown = error; e && chain.length < 5; e = (e as { cause?: unknown }).cause) chain.push(e);
  if (chain.some((e) => e instanceof BlockedTargetError)) {
    return { errorClass: "blocked_target", errorMessage: (chain.find((e) => e instanceof BlockedTargetError) as Error).message };
  }
  const codes = chain.map((e) => String((e as { code?: unknown }).code ?? ""));
  if (!timedOut && codes.includes("UND_ERR_CONNECT_TIMEOUT")) {
    return { errorClass: "connection", errorMessage: "Connection failed (no connection within the delivery timeout)." };
  }
  if (timedOut || codes.some((c) => /TIMEOUT/.test(c)) || chain.some((e) => (e as Error).name === "TimeoutError")) {
    return { errorClass: "timeout", errorMessage: "No response within the delivery timeout." };
  }
  const tls = codes.find((c) => TLS_CODES.test(c));
  if (tls) return { errorClass: "tls", errorMessage: `TLS handshake failed (${tls}).` };
  const code = codes.find((c) => c) ?? "";
  return { errorClass: "connection", errorMessage: `Connection failed${code ? ` (${code})` : ""}.` };
}

/** Origins whose latest attempt in this process could not connect (refused, unreachable, no connection in time). */
const unreachableOrigins = new Set<string>();

const originOf = (url: URL) => url.origin;

/** The target's origin could not be connected to at its latest attempt in this process. */
export function knownUnreachable(target: string): boolean {
  return URL.canParse(target) && unreachableOrigins.has(new URL(target).origin);
}

/**
 * For an origin whose latest attempt could not connect: tries a bare TCP connection (to an address
 * the SSRF guard passed) and returns the failed outcome when it is refused again, so the attempt is
 * made and recorded without building, signing and encrypting a payload that cannot be sent. Null
 * when the target may be reachable (never failed to connect, or accepts a connection now): then
 * build and post as usual. A refused connection is what most dead receivers answer, and it costs
 * next to nothing to find out.
 */
export async function unreachableOutcome(target: string, timeoutMs: number): Promise<SendOutcome | null> {
  const url = parseOutgoingTarget(target);
  if (!(url instanceof URL) || !unreachableOrigins.has(originOf(url))) return null;
  const started = performance.now();
  const port = Number(url.port || (url.protocol === "https:" ? 443 : 80));
  try {
    const [address] = await resolvePublicAddresses(url.hostname);
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect({ host: address.address, port, family: address.family, timeout: timeoutMs });
      socket.once("connect", () => (socket.destroy(), resolve()));
      socket.once("timeout", () => (socket.destroy(), reject(Object.assign(new Error("connect timeout"), { code: "UND_ERR_CONNECT_TIMEOUT" }))));
      socket.once("error", (error) => (socket.destroy(), reject(error)));
    });
    return null;
  } catch (error) {
    return { ok: false, durationMs: Math.round(performance.now() - started), status: null, ...classify(error, false) };
  }
}

/**
 * POSTs one webhook body. Success is any 2xx; redirects are not followed (3xx is a failure), every
 * other status fails too, as do timeouts, connection and TLS errors. The response body is read and
 * thrown away (at most a small amount), so a receiver that answers with garbage costs nothing.
 */
export async function postWebhook(input: {
  target: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
}): Promise<SendOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const url = parseOutgoingTarget(input.target);
  // The attempt's record is in English, as the delivery logs' other messages.
  if (!(url instanceof URL)) return { ok: false, durationMs: 0, status: null, errorClass: "blocked_target", errorMessage: url.english };
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, input.timeoutMs);
  const outcome = await send(url, input, controller, () => timedOut);
  clearTimeout(timer);
  // Connected and answered (whatever the status), or not: the next attempt probes first only after the latter.
  if (outcome.errorClass === "connection") unreachableOrigins.add(originOf(url));
  else unreachableOrigins.delete(originOf(url));
  return { ...outcome, durationMs: elapsed() };
}

/** The POST itself; the caller sets durationMs. */
async function send(
  url: URL,
  input: { body: string; headers: Record<string, string>; timeoutMs: number },
  controller: AbortController,
  timedOut: () => boolean,
): Promise<SendOutcome> {
  try {
    const post = () =>
      guardedRequest(url, {
        method: "POST",
        body: input.body,
        headers: input.headers,
        signal: controller.signal,
        timeoutMs: input.timeoutMs,
        headersTimeout: input.timeoutMs,
        bodyTimeout: input.timeoutMs,
      });
    // A pooled keep-alive connection the receiver closed while idle fails at once; one fresh try
    // within the same timeout tells that apart from a receiver that is really down.
    const response = await post().catch((error: unknown) => {
      if (timedOut() || !isClosedConnection(error)) throw error;
      return post();
    });
    await response.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
    const status = response.statusCode;
    if (status >= 200 && status < 300) return { ok: true, durationMs: 0, status, errorClass: null, errorMessage: null };
    const redirect = status >= 300 && status < 400;
    return {
      ok: false,
      durationMs: 0,
      status,
      errorClass: redirect ? "redirect" : "http_status",
      errorMessage: redirect ? `Redirect ${status} (redirects are not followed).` : `HTTP ${status}.`,
    };
  } catch (error) {
    return { ok: false, durationMs: 0, status: null, ...classify(error, timedOut()) };
  }
}
