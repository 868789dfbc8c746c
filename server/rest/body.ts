import { REST_BODY_MAX_BYTES as MAX_BODY_BYTES } from "@/server/http/body-limits";

export class BodyTooLargeError extends Error {}

/**
 * The client stopped sending the body (aborted the upload, reset the connection): no fault of
 * ours, logged at info level without a stack by whoever catches it; nobody reads the answer.
 */
export class BodyAbortedError extends Error {
  constructor(cause: unknown) {
    super("The client aborted the request body.", { cause });
  }
}

/**
 * The 413 of the doors outside REST and tRPC (next-auth, PassKit, Inngest, the production entry):
 * plain text, and Connection: close so the server closes the connection after it instead of
 * reading (and discarding) the rest of the body to keep it alive.
 */
export function bodyTooLargeResponse(cap: number): Response {
  return new Response(`Request body too large: the limit is ${cap / 1024} KiB.\n`, {
    status: 413,
    headers: { "content-type": "text/plain; charset=utf-8", connection: "close" },
  });
}

/** Reads the request body as UTF-8 text under the cap (readBodyBytes). */
export async function readBodyText(request: Request, cap = MAX_BODY_BYTES): Promise<string> {
  return (await readBodyBytes(request, cap)).toString("utf8");
}

/**
 * Reads the request body, refusing it as soon as it is known to exceed the cap: at once from
 * Content-Length, otherwise while streaming, without buffering more than the cap.
 */
export async function readBodyBytes(request: Request, cap = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(request.headers.get("content-length") ?? NaN);
  if (declared > cap) throw new BodyTooLargeError();
  if (!request.body) return Buffer.alloc(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    let chunk: ReadableStreamReadResult<Uint8Array>;
    try {
      chunk = await reader.read();
    } catch (error) {
      throw new BodyAbortedError(error);
    }
    const { done, value } = chunk;
    if (done) break;
    total += value.byteLength;
    if (total > cap) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

export function declaresTooLargeBody(request: Request, cap = MAX_BODY_BYTES): boolean {
  return Number(request.headers.get("content-length") ?? NaN) > cap;
}

export function isJsonContentType(request: Request): boolean {
  const type = request.headers.get("content-type") ?? "";
  return /^application\/json\s*(;|$)/i.test(type.trim());
}

const FORM_TYPES = /^(multipart\/form-data|application\/x-www-form-urlencoded)\s*(;|$)/i;

/**
 * A form body (multipart/form-data or application/x-www-form-urlencoded, read under the cap) as its
 * text fields, the first value of a repeated name as for query strings; null when the body is not
 * form data of that type, does not parse, or holds a file part.
 */
export async function readFormBody(request: Request): Promise<Record<string, string> | null> {
  const type = (request.headers.get("content-type") ?? "").trim();
  const kind = FORM_TYPES.exec(type)?.[1].toLowerCase();
  if (!kind) return null;
  const bytes = await readBodyBytes(request);
  let entries: Iterable<[string, FormDataEntryValue]>;
  if (kind === "application/x-www-form-urlencoded") {
    entries = new URLSearchParams(bytes.toString("utf8"));
  } else {
    try {
      entries = await new Response(new Uint8Array(bytes), { headers: { "content-type": type } }).formData();
    } catch {
      return null;
    }
  }
  const fields = new Map<string, string>();
  for (const [name, value] of entries) {
    if (typeof value !== "string") return null;
    if (!fields.has(name)) fields.set(name, value);
  }
  // Own properties whatever the names ("__proto__" included).
  return Object.fromEntries(fields);
}
