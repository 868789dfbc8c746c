import type { LookupAddress } from "node:dns";
import ipaddr from "ipaddr.js";
import { Agent, buildConnector, request } from "undici";
import { config } from "@/server/config";
import { resolvePublicAddresses } from "./target-guard";

/**
 * The one HTTP client for destinations a user or a key supplies (webhook targets, pharmacy-system
 * connectors, the payment provider's API endpoint an admin enters, any later URL of that kind). Its agent connects only to an address that passed the
 * SSRF guard at that very connection: a host name is resolved by the guard itself (the address
 * checked is the address connected to), an IP literal is checked before connecting. So a name
 * saved while it pointed at a public address and later pointed at 127.0.0.1 reaches nothing.
 * Redirects are never followed (undici's request does not follow them).
 *
 * Destinations the operator configures (APNs in apns.ts, the SMTP relay of SMTP_URL in
 * server/mail/smtp.ts; later a vendor's API base URL) are allowed by that configuration and use
 * their own clients, not this one.
 * docs/security.md#outgoing-requests.
 */
type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

function guardedLookup(hostname: string, options: { all?: boolean }, callback: LookupCallback): void {
  resolvePublicAddresses(hostname).then(
    (addresses) => (options.all ? callback(null, addresses) : callback(null, addresses[0].address, addresses[0].family)),
    (error: Error) => callback(error as NodeJS.ErrnoException, ""),
  );
}

/**
 * The connection (TCP and TLS handshake) is bounded by the caller's whole-request limit, not by a
 * shorter one of its own: the spec counts a webhook as failed only with "no response within 30
 * seconds" (connect included). A dead receiver is kept from healthy ones by the per-target
 * concurrency of the delivery runner, not by cutting its connection short.
 */
function guardedConnector(connectTimeoutMs: number): buildConnector.connector {
  const connect = buildConnector({ lookup: guardedLookup, timeout: connectTimeoutMs } as buildConnector.BuildOptions);
  return (options, callback) => {
    // Node connects to an IP literal without a lookup, so the guard checks it here.
    const host = options.hostname.replace(/^\[|\]$/g, "");
    if (!ipaddr.isValid(host)) return connect(options, callback);
    resolvePublicAddresses(host).then(
      () => connect(options, callback),
      (error: Error) => callback(error, null),
    );
  };
}

/**
 * One pool per value of WEBHOOK_ALLOW_PRIVATE_TARGETS: a keep-alive connection is checked when it is
 * made, so one made while private targets were allowed must never serve a request after they no
 * longer are (the setting changes in tests; a restart changes it in production). And one per connect
 * limit (undici sets it per connector): in practice one or two (webhooks, pharmacy systems).
 */
const holder = globalThis as unknown as { __rxGuardedAgents?: Map<string, Agent> };
function guardedAgent(connectTimeoutMs: number): Agent {
  const key = `${config().WEBHOOK_ALLOW_PRIVATE_TARGETS}/${connectTimeoutMs}`;
  holder.__rxGuardedAgents ??= new Map();
  let agent = holder.__rxGuardedAgents.get(key);
  if (!agent) {
    // Keep-alive connections are reused per origin (each was made to a checked address); pipelining
    // off so one slow response blocks nothing else.
    agent = new Agent({ connect: guardedConnector(connectTimeoutMs), pipelining: 1, connections: 64 });
    holder.__rxGuardedAgents.set(key, agent);
  }
  return agent;
}

export type GuardedRequestOptions = Omit<NonNullable<Parameters<typeof request>[1]>, "dispatcher" | "maxRedirections"> & {
  /** The request's whole limit: also bounds making the connection (the caller's signal bounds the rest). */
  timeoutMs: number;
};

/** undici's request through the guarded agent. Fails with a BlockedTargetError (in its cause chain) when the guard refuses. */
export function guardedRequest(url: URL, { timeoutMs, ...options }: GuardedRequestOptions) {
  return request(url, { ...options, dispatcher: guardedAgent(timeoutMs) });
}

type Body = Awaited<ReturnType<typeof guardedRequest>>["body"];

/** The body as text, or null when it is larger than `max` bytes (then the rest is not read). */
export async function readCapped(body: Body, contentLength: number, max: number): Promise<string | null> {
  // dump drops the rest (closing the connection when there is much of it) without an error event.
  if (contentLength > max) {
    await body.dump({ limit: 0 }).catch(() => undefined);
    return null;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > max) {
      await body.dump({ limit: 0 }).catch(() => undefined);
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
