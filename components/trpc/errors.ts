import { TRPCClientError } from "@trpc/client";
import { useTranslations } from "next-intl";
import type { FieldErrors } from "@/server/domain/errors";

/** What the server's error formatter (server/trpc/init.ts) adds to a tRPC error. */
type ErrorData = { code?: string; fieldErrors?: FieldErrors | null; reason?: string; details?: Record<string, unknown> };

const dataOf = (error: unknown): ErrorData | null => (error instanceof TRPCClientError ? ((error.data as ErrorData | undefined) ?? null) : null);

/** The server answered that the record is not there (or not in the caller's reach: the same answer). */
export const isNotFound = (error: unknown): boolean => dataOf(error)?.code === "NOT_FOUND";

/** The messages for one input field, to show beside it (flat fields; nested ones under "a.b"). */
export function fieldErrors(error: unknown, field: string): string[] | undefined {
  let node: FieldErrors | string[] | undefined = dataOf(error)?.fieldErrors ?? undefined;
  for (const key of field.split(".")) {
    if (!node || Array.isArray(node)) return undefined;
    node = node[key];
  }
  return Array.isArray(node) ? node : undefined;
}

/** Every field message of a refusal by its path ("mappings.0.identifier"), for a form (components/ui/form.tsx). */
export function serverFieldErrors(error: unknown): Record<string, string[]> {
  const flat: Record<string, string[]> = {};
  const walk = (node: FieldErrors, prefix: string) => {
    for (const [key, value] of Object.entries(node)) {
      if (Array.isArray(value)) flat[prefix + key] = value;
      else walk(value, `${prefix}${key}.`);
    }
  };
  walk(dataOf(error)?.fieldErrors ?? {}, "");
  return flat;
}

/** The client's own messages (errors.client.* in messages/*.json), for failures whose server message is not for people. */
export type Fallback = "unexpected" | "unreachable" | "sessionEnded" | "notFound" | "internal";

/**
 * What to tell people about a failure: the server's own message for a refusal (already in their
 * language: server/trpc/init.ts), else which of the client's fallbacks applies.
 */
export function failureOf(error: unknown): { message: string } | { fallback: Fallback } {
  if (!(error instanceof TRPCClientError)) return { fallback: "unexpected" };
  // No error data: the server was not reached, or answered something other than tRPC (a proxy's page).
  if (!dataOf(error)) return { fallback: "unreachable" };
  const code = dataOf(error)?.code;
  if (code === "UNAUTHORIZED") return { fallback: "sessionEnded" };
  if (code === "NOT_FOUND") return { fallback: "notFound" };
  if (code === "INTERNAL_SERVER_ERROR") return { fallback: "internal" };
  return { message: error.message };
}

/** `errorMessage(error)`, a message for people in the page's language: the server's own for refusals, a plain one for anything else. */
export function useErrorMessage(): (error: unknown) => string {
  const t = useTranslations("errors.client");
  return (error) => {
    const failure = failureOf(error);
    return "message" in failure ? failure.message : t(failure.fallback);
  };
}

/** The domain's meaning of a failure (e.g. "order_cancelled"), for a page that reacts to it. */
export const errorReason = (error: unknown): string | undefined => dataOf(error)?.reason;
