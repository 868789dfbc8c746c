import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { errorText, type ErrorText } from "@/i18n/error-text";
import { config } from "@/server/config";

/**
 * SSRF guard for destinations a user or a key supplies (webhook targets, pharmacy-system
 * connectors). A target must be an absolute http(s) URL without credentials whose host resolves
 * only to public unicast addresses (isPublicAddress), unless WEBHOOK_ALLOW_PRIVATE_TARGETS is on.
 * Checked when a target is saved (a clear field error) and again by the guarded client
 * (guarded-client.ts) at every connection, on the address it connects to, so a DNS answer that
 * changes after the save cannot reach an internal address. docs/security.md#outgoing-requests.
 */
export class BlockedTargetError extends Error {
  constructor(readonly text: ErrorText) {
    super(text.english);
  }
}

const MAX_TARGET_LENGTH = 2048;
/** C0 controls (CR, LF, tab, NUL…), space, DEL and C1 controls. */
const UNSAFE_URL_CHARACTERS = /[\u0000-\u0020\u007f-\u009f]/;

/** The URL if its shape is acceptable, else a message saying why not. */
export function parseOutgoingTarget(target: string): URL | ErrorText {
  if (target.length > MAX_TARGET_LENGTH) return errorText("fields.maxLength", { maximum: MAX_TARGET_LENGTH });
  // The URL parser silently drops tabs and line breaks and trims controls and spaces: the URL called
  // would not be the target shown and stored. docs/decisions/errors-and-validation.md#bad-input.
  if (UNSAFE_URL_CHARACTERS.test(target)) return errorText("targets.unsafeCharacters");
  if (!URL.canParse(target)) return errorText("targets.invalidUrl");
  const url = new URL(target);
  if (url.protocol !== "https:" && url.protocol !== "http:") return errorText("targets.invalidUrl");
  if (url.username || url.password) return errorText("targets.credentials");
  if (!url.hostname) return errorText("targets.invalidUrl");
  return url;
}

/** NAT64's well-known prefix 64:ff9b::/96 (RFC 6052): the last 32 bits are the IPv4 address the gateway reaches. */
const NAT64_WELL_KNOWN = ipaddr.parseCIDR("64:ff9b::/96");
/** IPv4-compatible IPv6 (::a.b.c.d, deprecated by RFC 4291): ipaddr.js calls it unicast. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR("::/96");

/**
 * True when connecting to this address is allowed: IPv4 and IPv6 unicast only (no loopback,
 * private, link-local with cloud metadata, carrier-grade NAT, multicast, reserved, unique-local,
 * documentation or benchmarking ranges). IPv6 forms that embed an IPv4 address: IPv4-mapped
 * (::ffff:a.b.c.d, connected to over IPv4) and NAT64 64:ff9b::/96 (a gateway forwards to the
 * IPv4 address) are judged by that IPv4 address; IPv4-compatible ::/96, IPv4-translated
 * ::ffff:0:a.b.c.d, local-use NAT64 64:ff9b:1::/48, 6to4 2002::/16 and Teredo 2001::/32 are refused
 * outright (deprecated or locally routed transition forms whose IPv4 part may be internal).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv4") return parsed.range() === "unicast";
  const v6 = parsed as ipaddr.IPv6;
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address().range() === "unicast";
  if (v6.match(NAT64_WELL_KNOWN)) return ipaddr.fromByteArray(v6.toByteArray().slice(12)).range() === "unicast";
  if (v6.match(IPV4_COMPATIBLE)) return false;
  return v6.range() === "unicast";
}

const privateTargetsAllowed = () => config().WEBHOOK_ALLOW_PRIVATE_TARGETS;

/** The host's addresses (an IP literal is its own), each checked; throws BlockedTargetError when one is not public. */
export async function resolvePublicAddresses(hostname: string): Promise<{ address: string; family: number }[]> {
  const host = hostname.replace(/^\[|\]$/g, "");
  const addresses = ipaddr.isValid(host)
    ? [{ address: host, family: ipaddr.parse(host).kind() === "ipv6" ? 6 : 4 }]
    : await lookup(host, { all: true, verbatim: true }).catch(() => {
        throw new BlockedTargetError(errorText("targets.unresolvable", { host }));
      });
  if (addresses.length === 0) throw new BlockedTargetError(errorText("targets.unresolvable", { host }));
  if (!privateTargetsAllowed()) {
    const blocked = addresses.find((a) => !isPublicAddress(a.address));
    if (blocked) throw new BlockedTargetError(errorText("targets.notPublic"));
  }
  return addresses;
}

/** The check when a target is saved: the shape and the addresses. Returns an error message, or null when the target is fine. */
export async function checkOutgoingTarget(target: string): Promise<ErrorText | null> {
  const url = parseOutgoingTarget(target);
  if (!(url instanceof URL)) return url;
  try {
    await resolvePublicAddresses(url.hostname);
    return null;
  } catch (error) {
    if (error instanceof BlockedTargetError) return error.text;
    throw error;
  }
}
