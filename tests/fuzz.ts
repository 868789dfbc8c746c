/**
 * The malformed-input corpus of server/fuzz/fuzz.test.ts: seeded and bounded, built from the route
 * tables and the tRPC router themselves, so a new route or procedure is fuzzed without a change here.
 *
 * Each case says whether it must be refused: "edge" cases carry something no input may hold (NUL or
 * a lone surrogate in a string or key, a path segment that is not text, invalid or too deeply nested
 * JSON), so any answer but a 4xx is a failure; "confusion" cases (wrong types, huge values, arrays for
 * objects…) may be accepted, but never with a 5xx.
 */
import type { z } from "zod";

/** mulberry32: a small, fast, seedable generator (deterministic runs). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];

/** Strings no input may hold. */
const UNSTORABLE_STRINGS = ["a\u0000b", "\u0000", "\ud800", "x\udfffy", "\udc00\ud800"];

/** Values of the wrong type or beyond every bound. */
const CONFUSING_VALUES: readonly unknown[] = [
  2147483648,
  -2147483649,
  9007199254740993,
  1e308,
  -1,
  0,
  0.5,
  "",
  " ",
  "2147483648",
  "x".repeat(70_000),
  "%00",
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "é😀",
  true,
  false,
  null,
  [],
  [1, "a", null],
  {},
  { a: { b: { c: 1 } } },
  Array.from({ length: 2000 }, (_, i) => i),
  nested(40),
];

/** Path segments that are not text, or name nothing; sent as-is (already percent-encoded). */
const BAD_SEGMENTS = ["%00", "a%00b", "%FF", "%C0%AF", "%ED%A0%80", "%E2%82"];
const ODD_SEGMENTS = ["%2e%2e", "x".repeat(3000), "00000000-0000-0000-0000-000000000000", "%20", "%2F"];

function nested(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

/** The object shape a schema validates, through optional/default/pipe/refine wrappers; null if none. */
export function shapeOf(schema: z.ZodType | undefined): Record<string, z.ZodType> | null {
  let current: unknown = schema;
  for (let i = 0; i < 10 && current; i++) {
    const s = current as { shape?: Record<string, z.ZodType>; _zod?: { def: Record<string, unknown> } };
    if (s.shape) return s.shape;
    const def = s._zod?.def;
    if (!def) return null;
    current = def.innerType ?? def.out ?? def.in ?? def.schema;
  }
  return null;
}

/** A plausible value for a field, by its name: known ids for uid fields, else a short text. */
export type IdsByName = (name: string) => string | undefined;

export function templateFor(schema: z.ZodType | undefined, ids: IdsByName): Record<string, unknown> {
  const shape = shapeOf(schema) ?? {};
  return Object.fromEntries(Object.keys(shape).map((key) => [key, ids(key) ?? (/uid$/i.test(key) ? "00000000-0000-0000-0000-000000000000" : "x")]));
}

type Path = (string | number)[];

/** Every path to a value inside a JSON value (the root included). */
function pathsOf(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  out.push(path);
  if (Array.isArray(value)) value.forEach((v, i) => pathsOf(v, [...path, i], out));
  else if (value && typeof value === "object") for (const [k, v] of Object.entries(value)) pathsOf(v, [...path, k], out);
  return out;
}

function setAt(root: unknown, path: Path, value: unknown): unknown {
  if (path.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string | number, unknown>;
  node[path[path.length - 1]] = value;
  return copy;
}

export type BodyCase = { text: string; mustRefuse: boolean; label: string };

/** A malformed JSON body built from a template: one value replaced, or the whole text broken. */
export function malformedBody(random: Random, template: unknown): BodyCase {
  const roll = random();
  const paths = pathsOf(template).filter((p) => p.length > 0);
  const at = paths.length > 0 ? pick(random, paths) : [];
  if (roll < 0.35) {
    const bad = pick(random, UNSTORABLE_STRINGS);
    return { text: JSON.stringify(setAt(template, at, bad)), mustRefuse: true, label: `unstorable string at ${at.join(".")}` };
  }
  if (roll < 0.42) {
    const bad = { [pick(random, UNSTORABLE_STRINGS)]: 1 };
    return { text: JSON.stringify(setAt(template, at, bad)), mustRefuse: true, label: `unstorable key at ${at.join(".")}` };
  }
  if (roll < 0.47) {
    // Deeper than any parser stack: built as text, as an attacker would send it.
    const marker = "__DEEP__";
    const deep = '{"a":'.repeat(10_000) + "1" + "}".repeat(10_000);
    return { text: JSON.stringify(setAt(template, at, marker)).replace(`"${marker}"`, deep), mustRefuse: true, label: `10,000 levels at ${at.join(".")}` };
  }
  if (roll < 0.52) {
    const text = pick(random, ["{", '{"a":}', "\u0000", "{\"a\":\"\\ud800\"", "nul", "[1,]"]);
    return { text, mustRefuse: true, label: `invalid JSON ${JSON.stringify(text)}` };
  }
  if (roll < 0.58) {
    const text = pick(random, ["", "null", "[]", "123", '"x"', "true", "[{}]"]);
    return { text, mustRefuse: false, label: `body ${JSON.stringify(text)}` };
  }
  // Type confusion: one or two values replaced.
  let body = template;
  const labels: string[] = [];
  for (let i = 0; i < 1 + Math.floor(random() * 2); i++) {
    const path = pick(random, pathsOf(body).filter((p) => p.length > 0).concat(paths.length ? [] : [[]]));
    const value = pick(random, CONFUSING_VALUES);
    body = setAt(body, path, value);
    labels.push(`${path.join(".")}=${describe(value)}`);
  }
  return { text: JSON.stringify(body), mustRefuse: false, label: `confusion ${labels.join(", ")}` };
}

export type FormCase = BodyCase & { contentType: string };

/**
 * A malformed form body (routes with bodyFormat "form") built from a template's field names: a NUL
 * in a value or a name, a broken multipart body (all must be refused), or odd values (may be accepted).
 */
export function malformedForm(random: Random, template: unknown): FormCase {
  const urlencoded = "application/x-www-form-urlencoded";
  const values = (template ?? {}) as Record<string, unknown>;
  const names = Object.keys(values);
  const fields = new URLSearchParams(names.map((name) => [name, String(values[name])]));
  const at = names.length > 0 ? pick(random, names) : "x";
  const roll = random();
  if (roll < 0.3) {
    fields.set(at, pick(random, ["a\u0000b", "\u0000"]));
    return { text: fields.toString(), contentType: urlencoded, mustRefuse: true, label: `NUL in form field ${at}` };
  }
  if (roll < 0.38) {
    fields.append("a\u0000", "1");
    return { text: fields.toString(), contentType: urlencoded, mustRefuse: true, label: "NUL in a form field name" };
  }
  if (roll < 0.46) {
    const text = pick(random, ["--b\r\nnot a part", "--b\r\nContent-Disposition: form-data\r\n\r\nx", "\u0000"]);
    return { text, contentType: "multipart/form-data; boundary=b", mustRefuse: true, label: `broken multipart ${JSON.stringify(text)}` };
  }
  if (roll < 0.52) {
    const text = JSON.stringify(template);
    return { text, contentType: "application/json", mustRefuse: true, label: "JSON to a form route" };
  }
  const value = pick(random, CONFUSING_VALUES);
  fields.set(at, typeof value === "string" ? value : JSON.stringify(value) ?? "");
  return { text: fields.toString(), contentType: urlencoded, mustRefuse: false, label: `form ${at}=${describe(value)}` };
}

function describe(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}…(${text.length})` : text;
}

/** A path with its parameters filled: mostly real ids, sometimes a segment that is not text. */
export function fillPath(random: Random, pattern: string, ids: IdsByName): { path: string; mustRefuse: boolean; label: string } {
  let mustRefuse = false;
  const labels: string[] = [];
  const path = pattern
    .split("/")
    .map((segment) => {
      if (!segment.startsWith(":")) return segment;
      const roll = random();
      if (roll < 0.25) {
        const bad = pick(random, BAD_SEGMENTS);
        mustRefuse = true;
        labels.push(`${segment}=${bad}`);
        return bad;
      }
      if (roll < 0.35) {
        const odd = pick(random, ODD_SEGMENTS);
        labels.push(`${segment}=${odd.slice(0, 40)}`);
        return odd;
      }
      return encodeURIComponent(ids(segment.slice(1)) ?? "00000000-0000-0000-0000-000000000000");
    })
    .join("/");
  return { path, mustRefuse, label: labels.join(", ") };
}

/** A query string: the route's own keys and the paging keys, with odd values; `%00` must be refused. */
export function malformedQuery(random: Random, keys: string[]): { query: string; mustRefuse: boolean; label: string } {
  if (random() < 0.5) return { query: "", mustRefuse: false, label: "" };
  const key = keys.length > 0 && random() < 0.8 ? pick(random, keys) : pick(random, ["page", "limit", "x"]);
  const roll = random();
  if (roll < 0.4) {
    const value = pick(random, ["%00", "a%00", "%00%00x"]);
    return { query: `${encodeURIComponent(key)}=${value}`, mustRefuse: true, label: `?${key}=${value}` };
  }
  if (roll < 0.45) return { query: `a%00=1`, mustRefuse: true, label: "?a%00=1" };
  const value = pick(random, ["%FF", "%C0%AF", "-1", "2147483648", "99999999999999999999", "1e999", "", "%20", "x".repeat(5000), "[]", "true"]);
  return { query: `${encodeURIComponent(key)}=${value}`, mustRefuse: false, label: `?${key}=${value.slice(0, 40)}` };
}
