/** 32 MiB: the spec's request body cap. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

export class BodyTooLargeError extends Error {}

/**
 * Reads the request body as UTF-8 text, refusing it as soon as it is known to exceed the cap:
 * at once from Content-Length, otherwise while streaming, without buffering more than the cap.
 */
export async function readBodyText(request: Request, cap = MAX_BODY_BYTES): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > cap) throw new BodyTooLargeError();
  if (!request.body) return "";
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

export function declaresTooLargeBody(request: Request, cap = MAX_BODY_BYTES): boolean {
  return Number(request.headers.get("content-length") ?? NaN) > cap;
}

export function isJsonContentType(request: Request): boolean {
  const type = request.headers.get("content-type") ?? "";
  return /^application\/json\s*(;|$)/i.test(type.trim());
}
