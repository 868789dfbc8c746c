import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { config } from "@/server/config";

/**
 * SSRF guard for webhook targets. A target must be an absolute http(s) URL without credentials whose
 * host resolves only to public unicast addresses: loopback, private, link-local (cloud metadata
 * 169.254.169.254 included), carrier-grade NAT, multicast, reserved and unique-local addresses are
 * refused, unless WEBHOOK_ALLOW_PRIVATE_TARGETS is on. Checked at registration and again at every
 * delivery, where the connection itself is made only to an address that passed (see webhook-sender.ts),
 * so a DNS answer that changes between check and connect cannot slip through.
 */
export class BlockedTargetError extends Error {}

const MAX_TARGET_LENGTH = 2048;
/** C0 controls (CR, LF, tab, NUL…), space, DEL and C1 controls. */
const UNSAFE_URL_CHARACTERS = /[\u0000-\u0020\u007f-\u009f]/;

/** The URL if its shape is acceptable, else a message saying why not. */
export function parseWebhookTarget(target: string): URL | string {
  if (target.length > MAX_TARGET_LENGTH) return `Ensure this field has no more than ${MAX_TARGET_LENGTH} characters.`;
  // The URL parser silently drops tabs and line breaks and trims controls and spaces: the URL called
  // would not be the target shown and stored. docs/spec-gaps.md#bad-input.
  if (UNSAFE_URL_CHARACTERS.test(target)) return "The URL must not contain spaces, line breaks or other control characters.";
  if (!URL.canParse(target)) return "Enter a valid absolute http(s) URL.";
  const url = new URL(target);
  if (url.protocol !== "https:" && url.protocol !== "http:") return "Enter a valid absolute http(s) URL.";
  if (url.username || url.password) return "The URL must not contain credentials.";
  if (!url.hostname) return "Enter a valid absolute http(s) URL.";
  return url;
}

/** True when connecting to this address is allowed. */
function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === "unicast";
}

const privateTargetsAllowed = () => config().WEBHOOK_ALLOW_PRIVATE_TARGETS;

/** The host's addresses, each checked; throws BlockedTargetError when one is not public. */
export async function resolvePublicAddresses(hostname: string): Promise<{ address: string; family: number }[]> {
  const host = hostname.replace(/^\[|\]$/g, "");
  const addresses = ipaddr.isValid(host)
    ? [{ address: host, family: ipaddr.parse(host).kind() === "ipv6" ? 6 : 4 }]
    : await lookup(host, { all: true, verbatim: true }).catch(() => {
        throw new BlockedTargetError(`The host ${host} does not resolve.`);
      });
  if (addresses.length === 0) throw new BlockedTargetError(`The host ${host} does not resolve.`);
  if (!privateTargetsAllowed()) {
    const blocked = addresses.find((a) => !isPublicAddress(a.address));
    if (blocked) throw new BlockedTargetError("The target resolves to a loopback, private, link-local or reserved address.");
  }
  return addresses;
}

/** Registration check: the shape and the addresses. Returns an error message, or null when the target is fine. */
export async function checkWebhookTarget(target: string): Promise<string | null> {
  const url = parseWebhookTarget(target);
  if (typeof url === "string") return url;
  try {
    await resolvePublicAddresses(url.hostname);
    return null;
  } catch (error) {
    if (error instanceof BlockedTargetError) return error.message;
    throw error;
  }
}
