/** Targets for the outgoing-request guard's tests (issue 21 item 4). */
import { reloadConfig } from "@/server/config";

/**
 * IPv6 forms that embed an IPv4 address which is loopback, private or the cloud metadata service:
 * each must be refused wherever a target is accepted or used.
 */
export const EMBEDDED_IPV4_TARGETS = [
  "http://[::7f00:1]/hook", // IPv4-compatible 127.0.0.1
  "http://[::a9fe:a9fe]/latest/meta-data", // IPv4-compatible 169.254.169.254
  "http://[::a00:1]/hook", // IPv4-compatible 10.0.0.1
  "http://[::ffff:a9fe:a9fe]/latest/meta-data", // IPv4-mapped 169.254.169.254
  "http://[::ffff:0:7f00:1]/hook", // IPv4-translated (RFC 6145) 127.0.0.1
  "http://[64:ff9b::a9fe:a9fe]/latest/meta-data", // NAT64 well-known prefix, 169.254.169.254
  "http://[64:ff9b:1::a00:1]/hook", // NAT64 local-use prefix, 10.0.0.1
  "http://[2002:7f00:1::1]/hook", // 6to4 of 127.0.0.1
  "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook", // Teredo, client 127.0.0.1 (stored inverted)
];

/** The field error a refused target gets. */
export const BLOCKED_TARGET_MESSAGE = "The target resolves to a loopback, private, link-local or reserved address.";

/** Runs `work` with WEBHOOK_ALLOW_PRIVATE_TARGETS off (the default), then restores the setting. */
export async function withPrivateTargetsRefused<T>(work: () => Promise<T>): Promise<T> {
  const before = process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
  process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = "false";
  reloadConfig();
  try {
    return await work();
  } finally {
    if (before === undefined) delete process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS;
    else process.env.WEBHOOK_ALLOW_PRIVATE_TARGETS = before;
    reloadConfig();
  }
}
