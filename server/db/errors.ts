import { Prisma } from "./generated/client";

/**
 * What a database error means, for the callers that decide by it: the domain (a duplicate is a
 * conflict) and the REST kit (an exhausted pool is a 503).
 */

/** Unique-constraint violations arrive as P2002 from Prisma or as raw SQLSTATE 23505 from a driver adapter. */
export function isUniqueViolation(error: unknown): boolean {
  if (error instanceof Prisma.PrismaClientKnownRequestError) {
    if (error.code === "P2002") return true;
    const cause = (error.meta as { driverAdapterError?: { cause?: { originalCode?: string; code?: string; kind?: string } } } | undefined)
      ?.driverAdapterError?.cause;
    // A raw statement's violation on PGlite arrives unmapped: { kind: "postgres", code: "23505" }.
    if (cause?.originalCode === "23505" || cause?.code === "23505" || cause?.kind === "UniqueConstraintViolation") return true;
  }
  const text = String((error as { code?: unknown })?.code ?? "") + " " + String((error as Error)?.message ?? "");
  return /\b23505\b|Unique constraint failed|duplicate key value/.test(text);
}

/** No connection could be had in time for a transaction on the driver (the pool is exhausted). */
export class DatabaseBusyError extends Error {
  constructor(waitedMs: number) {
    super(`no database connection within ${waitedMs} ms`);
  }
}

/** Prisma P2028 or the driver's DatabaseBusyError: no connection or transaction could be had in time (the pool is exhausted). */
export function isDatabaseBusy(error: unknown): boolean {
  return (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2028") || error instanceof DatabaseBusyError;
}
