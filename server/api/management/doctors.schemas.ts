import { z } from "zod";
import { BadRequestError } from "@/server/domain/errors";
import { unixSecondsQuery } from "@/server/wire/schemas";

// A parameter sent empty (`from=`) is a missing one. Required, with the route's own message
// (requireParameters); x-required shows it required in the API explorer.
const requiredUnixSeconds = () =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), unixSecondsQuery()).meta({ "x-required": true });

/** GET /doctors/{uid}/statistics: from and to in Unix seconds, both inclusive, to after from. */
export const statisticsQuery = z
  .object({ from: requiredUnixSeconds(), to: requiredUnixSeconds() })
  .refine((q) => q.from === undefined || q.to === undefined || q.to > q.from, { path: ["to"], message: "Must be after from." });

/**
 * The spec's standard error for missing parameters (Errors, item 1: "Missing required parameters:
 * from and to"), naming only the missing ones.
 */
export function requireParameters<T extends Record<string, unknown>, K extends keyof T & string>(query: T, names: readonly K[]): T & { [P in K]-?: NonNullable<T[P]> } {
  const missing = names.filter((name) => query[name] === undefined);
  if (missing.length > 0) {
    const listed = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(", ")} and ${missing[missing.length - 1]}`;
    throw new BadRequestError(`Missing required parameters: ${listed}`);
  }
  return query as T & { [P in K]-?: NonNullable<T[P]> };
}
