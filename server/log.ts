/**
 * Structured logs, one JSON object per line on stderr. Callers pass ids and classes of things,
 * never API keys, secrets or request bodies. Errors are logged without the values they quote:
 * database and Prisma messages repeat the arguments of the failed statement, which may be a
 * patient's name or e-mail address (docs/decisions/errors-and-validation.md#bad-input).
 */
type Fields = Record<string, unknown>;

const REDACTED = "[redacted]";

/** Quoted literals ("…", '…', Key (col)=(…)) of one message line replaced; backticked code names kept. */
function redactLine(line: string): string {
  return line
    .replace(/"(?:[^"\\]|\\.)*"/g, `"${REDACTED}"`)
    .replace(/'(?:[^'\\]|\\.)*'/g, `'${REDACTED}'`)
    .replace(/=\([^)]*\)/g, `=(${REDACTED})`)
    .slice(0, 500);
}

/**
 * An error's class, code and where it was thrown, with its message reduced to its first and last
 * lines (a Prisma invocation message puts the statement's arguments between them), literals redacted.
 */
export function loggableError(error: Error): Fields {
  const lines = error.message.split("\n").map((l) => l.trim()).filter(Boolean);
  const message = lines.length <= 1 ? (lines[0] ?? "") : `${lines[0]} … ${lines[lines.length - 1]}`;
  const code = (error as { code?: unknown }).code;
  const frames = (error.stack ?? "").split("\n").filter((l) => /^\s+at /.test(l));
  return {
    name: error.name,
    ...(typeof code === "string" || typeof code === "number" ? { code } : {}),
    message: redactLine(message),
    stack: frames.join("\n"),
    ...(error.cause instanceof Error ? { cause: loggableError(error.cause) } : {}),
  };
}

/** A request as logs may show it: method, path and the query's keys, never its values or the body. */
export function loggableRequest(request: Request): Fields {
  const url = new URL(request.url);
  const query = [...new Set(url.searchParams.keys())].map((key) => `${key}=${REDACTED}`).join("&");
  return { method: request.method, path: url.pathname, ...(query ? { query } : {}) };
}

function serialise(value: unknown): unknown {
  if (value instanceof Error) return loggableError(value);
  return value;
}

function write(level: "info" | "warn" | "error", message: string, fields: Fields = {}) {
  if (process.env.LOG_LEVEL === "silent") return;
  const entry: Fields = { time: new Date().toISOString(), level, message };
  for (const [key, value] of Object.entries(fields)) entry[key] = serialise(value);
  process.stderr.write(`${JSON.stringify(entry)}\n`);
}

export const log = {
  info: (message: string, fields?: Fields) => write("info", message, fields),
  warn: (message: string, fields?: Fields) => write("warn", message, fields),
  error: (message: string, fields?: Fields) => write("error", message, fields),
};
