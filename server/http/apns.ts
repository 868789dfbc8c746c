import http2 from "node:http2";

/**
 * Apple Push Notification service, for Wallet pass updates: an empty JSON payload `{}` to
 * /3/device/{pushToken} with apns-topic = the pass type identifier, over HTTP/2 with the pass signer
 * certificate as the TLS client certificate (Apple's "Updating a pass"). One connection per batch of
 * devices, closed afterwards.
 */
export type ApnsOptions = {
  /** host or host:port (api.push.apple.com). */
  host: string;
  topic: string;
  certPem: string;
  keyPem: string;
  passphrase?: string;
  /** Extra trusted CA for the host's certificate (a relay, a test server). */
  caPem?: string;
  timeoutMs?: number;
};

/** delivered: APNs accepted it; unregistered: the token is no longer valid for the topic (410, or 400 BadDeviceToken). */
export type ApnsOutcome = "delivered" | "unregistered";

export class ApnsError extends Error {}

export async function pushPassUpdates(options: ApnsOptions, pushTokens: string[]): Promise<Map<string, ApnsOutcome>> {
  const outcomes = new Map<string, ApnsOutcome>();
  if (pushTokens.length === 0) return outcomes;
  const session = http2.connect(`https://${options.host}`, {
    cert: options.certPem,
    key: options.keyPem,
    passphrase: options.passphrase,
    ...(options.caPem ? { ca: options.caPem } : {}),
  });
  const failed = new Promise<never>((_, reject) => session.once("error", (error) => reject(new ApnsError(`APNs connection failed: ${error.message}`))));
  failed.catch(() => undefined);
  try {
    for (const token of pushTokens) outcomes.set(token, await Promise.race([pushOne(session, options, token), failed]));
    return outcomes;
  } finally {
    session.close();
  }
}

function pushOne(session: http2.ClientHttp2Session, options: ApnsOptions, token: string): Promise<ApnsOutcome> {
  return new Promise((resolve, reject) => {
    const request = session.request({
      ":method": "POST",
      ":path": `/3/device/${encodeURIComponent(token)}`,
      "apns-topic": options.topic,
      "content-type": "application/json",
    });
    request.setTimeout(options.timeoutMs ?? 10_000, () => request.close(http2.constants.NGHTTP2_CANCEL));
    let status = 0;
    let body = "";
    request.on("response", (headers) => (status = Number(headers[":status"])));
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("error", (error) => reject(new ApnsError(`APNs request failed: ${error.message}`)));
    request.on("close", () => {
      if (status === 200) return resolve("delivered");
      const reason = reasonOf(body);
      if (status === 410 || (status === 400 && reason === "BadDeviceToken")) return resolve("unregistered");
      reject(new ApnsError(status ? `APNs answered ${status}${reason ? ` ${reason}` : ""}` : "APNs gave no answer in time"));
    });
    request.end("{}");
  });
}

function reasonOf(body: string): string {
  try {
    return String((JSON.parse(body) as { reason?: unknown }).reason ?? "");
  } catch {
    return "";
  }
}
