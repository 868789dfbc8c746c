/**
 * Structured logs, one JSON object per line on stderr. Callers pass ids and classes of things,
 * never API keys, secrets or request bodies.
 */
type Fields = Record<string, unknown>;

function serialise(value: unknown): unknown {
  if (value instanceof Error) return { name: value.name, message: value.message, stack: value.stack };
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
