import type { LookupAddress } from "node:dns";
import ipaddr from "ipaddr.js";
import { Agent, buildConnector, request } from "undici";
import { config } from "@/server/config";
import { resolvePublicAddresses } from "./target-guard";

/**
 * The one HTTP client for destinations a user or a key supplies (webhook targets, pharmacy-system
 * connectors, any later URL of that kind). Its agent connects only to an address that passed the
 * SSRF guard at that very connection: a host name is resolved by the guard itself (the address
 * checked is the address connected to), an IP literal is checked before connecting. So a name
 * saved while it pointed at a public address and later pointed at 127.0.0.1 reaches nothing.
 * Redirects are never followed (undici's request does not follow them).
 *
 * Destinations the operator configures (APNs in apns.ts; later an SMTP relay or a vendor's API
 * base URL) are allowed by that configuration and use their own clients, not this one.
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
 * A destination that accepts no connection within this time counts as a failed connection (undici's
 * default is 10 s): an unreachable target then holds its slot briefly.
 */
export const CONNECT_TIMEOUT_MS = 5_000;

function guardedConnector(): buildConnector.connector {
  const connect = buildConnector({ lookup: guardedLookup, timeout: CONNECT_TIMEOUT_MS } as buildConnector.BuildOptions);
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
 * longer are (the setting changes in tests; a restart changes it in production).
 */
const holder = globalThis as unknown as { __rxGuardedAgents?: Map<boolean, Agent> };
function guardedAgent(): Agent {
  const privateAllowed = config().WEBHOOK_ALLOW_PRIVATE_TARGETS;
  holder.__rxGuardedAgents ??= new Map();
  let agent = holder.__rxGuardedAgents.get(privateAllowed);
  if (!agent) {
    // Keep-alive connections are reused per origin (each was made to a checked address); pipelining
    // off so one slow response blocks nothing else.
    agent = new Agent({ connect: guardedConnector(), pipelining: 1, connections: 64 });
    holder.__rxGuardedAgents.set(privateAllowed, agent);
  }
  return agent;
}

export type GuardedRequestOptions = Omit<NonNullable<Parameters<typeof request>[1]>, "dispatcher" | "maxRedirections">;

/** undici's request through the guarded agent. Fails with a BlockedTargetError (in its cause chain) when the guard refuses. */
export function guardedRequest(url: URL, options: GuardedRequestOptions) {
  return request(url, { ...options, dispatcher: guardedAgent() });
}
