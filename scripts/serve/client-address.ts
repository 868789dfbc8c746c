import type http from "node:http";
import net from "node:net";
import ipaddr from "ipaddr.js";
import proxyaddr from "proxy-addr";
import { log } from "@/server/log";
import { CLIENT_ADDRESS_HEADER } from "@/server/rest/rate-limit";

/**
 * The client's address, decided once per request by the production entry and written to the header
 * every handler reads (CLIENT_ADDRESS_HEADER, overwriting whatever the client sent): the
 * connection's peer, or, when the peer is a trusted proxy (TRUSTED_PROXIES), the rightmost
 * X-Forwarded-For hop that no trusted proxy appended (proxy-addr walks the chain from the socket
 * back). Hops to the left of it were written by the client and are never believed
 * (docs/security.md#client-addresses-and-throttling).
 */
export function clientAddressResolver(trusted: readonly string[]): (req: http.IncomingMessage) => string {
  const trust = proxyaddr.compile([...trusted]);
  let warned = false;
  return (req) => {
    const peer = req.socket.remoteAddress ?? "";
    if (!warned && (req.headers["x-forwarded-for"] !== undefined || req.headers.forwarded !== undefined) && !trust(peer, 0)) {
      // Behind a proxy nobody configured, every client would count as the proxy: say so, once.
      warned = true;
      log.warn("X-Forwarded-For ignored: the request came from a peer that is not a trusted proxy, so it counts as that peer", {
        peer,
        setting: "TRUSTED_PROXIES",
        hint: `if ${peer} is your proxy, set TRUSTED_PROXIES=${peer} (or its range)`,
      });
    }
    // [peer, nearest hop, …] up to and including the first address that is not trusted.
    const chain = proxyaddr.all(req, trust);
    // A hop that is not an address (garbage a trusted proxy passed on): the proxy that reported it.
    const address = [...chain].reverse().find((a) => net.isIP(a) !== 0);
    return address ? ipaddr.process(address).toString() : "unknown";
  };
}

/** What the entry says at start about where client addresses come from. */
export function clientAddressPolicy(trusted: readonly string[]): string {
  return trusted.length === 0
    ? "client addresses: the connection's peer (TRUSTED_PROXIES unset: X-Forwarded-For is ignored)"
    : `client addresses: the rightmost X-Forwarded-For hop not appended by a trusted proxy (TRUSTED_PROXIES=${trusted.join(",")})`;
}

/** The entry's listener behind the resolver: every request carries the address the entry decided. */
export function withClientAddress(listener: http.RequestListener, trusted: readonly string[]): http.RequestListener {
  const resolve = clientAddressResolver(trusted);
  return (req, res) => {
    req.headers[CLIENT_ADDRESS_HEADER] = resolve(req);
    listener(req, res);
  };
}
