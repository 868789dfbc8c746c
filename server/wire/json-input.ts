import { FieldErrorCollector, type FieldErrors } from "@/server/domain/errors";

/**
 * The edge check of every parsed JSON input (REST bodies and query strings, tRPC inputs), before any
 * schema or handler sees it: text PostgreSQL cannot store (NUL) or that is not Unicode (a lone
 * surrogate) in any string or key, and nesting beyond MAX_JSON_DEPTH (JSON.parse copes with any depth,
 * but JSON.stringify, which Prisma and the logs use, overflows the stack at a few thousand levels).
 * docs/decisions/errors-and-validation.md#bad-input.
 */
export const MAX_JSON_DEPTH = 32;

export const UNSTORABLE_TEXT_MESSAGE = "Text may not contain NUL characters or unpaired UTF-16 surrogates.";
export const TOO_DEEP_MESSAGE = `Nested too deeply: at most ${MAX_JSON_DEPTH} levels.`;

// ES2024's String.prototype.isWellFormed (Node 20+): false when a surrogate is unpaired.
type WellFormedCheck = { isWellFormed(): boolean };

/** True when a string can be stored and sent as text: no NUL, no lone surrogate. */
export function isStorableText(value: string): boolean {
  return !value.includes("\u0000") && (value as unknown as WellFormedCheck).isWellFormed();
}

/**
 * A URL path segment as text, or null when it is not percent-encoded UTF-8 (`%FF`, `%C0%AF`,
 * `%ED%A0%80`, `%E2%82`) or decodes to text that cannot be stored (`%00`): no URL of ours has such a
 * segment, so every door answers it as an unknown path (the REST kit's path parameters, and proxy.ts
 * for every path it sees, before Next.js decodes a route's dynamic segment). docs/decisions/errors-and-validation.md#bad-input.
 */
export function decodePathSegment(segment: string): string | null {
  try {
    const value = decodeURIComponent(segment);
    return isStorableText(value) ? value : null;
  } catch {
    return null;
  }
}

type Path = (string | number)[];

/**
 * Field errors for the unstorable strings and keys of a parsed JSON value, or null when it is fine.
 * Iterative (an explicit stack), so no input can overflow it; stops after the first few findings.
 */
export function inputTextErrors(value: unknown, maxFindings = 20): FieldErrors | null {
  const errors = new FieldErrorCollector<string>();
  let findings = 0;
  const stack: { value: unknown; path: Path }[] = [{ value, path: [] }];
  while (stack.length > 0 && findings < maxFindings) {
    const { value: node, path } = stack.pop()!;
    if (typeof node === "string") {
      if (!isStorableText(node)) {
        errors.add(path, UNSTORABLE_TEXT_MESSAGE);
        findings++;
      }
      continue;
    }
    if (node === null || typeof node !== "object") continue;
    if (path.length >= MAX_JSON_DEPTH) {
      // Named by the top-level field, so the error body itself stays shallow.
      errors.add(path.slice(0, 1), TOO_DEEP_MESSAGE);
      findings++;
      continue;
    }
    if (Array.isArray(node)) {
      for (let i = node.length - 1; i >= 0; i--) stack.push({ value: node[i], path: [...path, i] });
      continue;
    }
    for (const [key, child] of Object.entries(node)) {
      if (!isStorableText(key)) {
        // The key itself cannot be named as it was sent: the error is on its parent.
        errors.add(path, UNSTORABLE_TEXT_MESSAGE);
        findings++;
        continue;
      }
      stack.push({ value: child, path: [...path, key] });
    }
  }
  return errors.empty ? null : errors.fields;
}
