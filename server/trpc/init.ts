/**
 * tRPC for the portals: the context, the procedure kinds (who may call) and the one place where the
 * domain's errors become tRPC errors. Outputs are plain JSON (no transformer): dates as Unix seconds.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import type { PortalSessionUser } from "@/server/auth/portal-session";
import type { Db } from "@/server/db/client";
import {
  BadRequestError,
  ConflictError,
  DomainError,
  NotFoundError,
  UnprocessableError,
  ValidationError,
  type FieldErrors,
} from "@/server/domain/errors";
import { toFieldErrors } from "@/server/rest/validation";

export type TrpcContext = { db: Db; user: PortalSessionUser | null };

/** A domain error as the tRPC error a caller sees; the domain error stays its cause. */
export function toTrpcError(error: DomainError): TRPCError {
  const code =
    error instanceof NotFoundError
      ? "NOT_FOUND"
      : error instanceof ValidationError || error instanceof BadRequestError
        ? "BAD_REQUEST"
        : error instanceof ConflictError
          ? "CONFLICT"
          : error instanceof UnprocessableError
            ? "UNPROCESSABLE_CONTENT"
            : "INTERNAL_SERVER_ERROR";
  return new TRPCError({ code, message: code === "INTERNAL_SERVER_ERROR" ? "Internal server error" : error.message, cause: error });
}

/** Field messages of a refused input: our ValidationError/UnprocessableError, or the input schema's zod issues. */
function fieldErrorsOf(cause: unknown): FieldErrors | null {
  if (cause instanceof ValidationError) return cause.fields;
  if (cause instanceof UnprocessableError) return cause.fields ?? null;
  if (cause instanceof ZodError) return toFieldErrors(cause.issues);
  return null;
}

const t = initTRPC.context<TrpcContext>().create({
  errorFormatter({ shape, error }) {
    const internal = error.code === "INTERNAL_SERVER_ERROR";
    const fieldErrors = error.code === "BAD_REQUEST" || error.code === "UNPROCESSABLE_CONTENT" ? fieldErrorsOf(error.cause) : null;
    return {
      ...shape,
      // Unexpected failures do not reveal their internals (SQL, paths) to the browser.
      message: internal ? "Internal server error" : error.cause instanceof ZodError ? "Invalid input" : shape.message,
      data: {
        ...shape.data,
        fieldErrors,
        ...(error.cause instanceof ConflictError && Object.keys(error.cause.extra).length ? { conflict: error.cause.extra } : {}),
      },
    };
  },
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const middleware = t.middleware;

/** Domain errors thrown anywhere below become their tRPC codes (runs around every procedure). */
const domainErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof DomainError) throw toTrpcError(result.error.cause);
  return result;
});

/** Anyone, signed in or not. */
export const publicProcedure = t.procedure.use(domainErrors);

/**
 * A signed-in portal user who still exists. Role, organisation, pharmacy and group are read from the
 * database on every call, so a change to the user applies at once rather than when the session
 * token (valid 12 hours) is renewed.
 */
export const authedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in to continue." });
  const current = await ctx.db.user.findUnique({
    where: { id: ctx.user.id },
    select: { id: true, email: true, displayName: true, role: true, organisationId: true, pharmacyId: true, pharmacyGroupId: true },
  });
  if (!current) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in to continue." });
  const user: PortalSessionUser = {
    id: current.id,
    email: current.email,
    name: current.displayName,
    role: current.role,
    organisationId: current.organisationId,
    pharmacyId: current.pharmacyId,
    pharmacyGroupId: current.pharmacyGroupId,
  };
  return next({ ctx: { user } });
});

/** A pharmacist (pharmacy portal). */
export const pharmacistProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.user.role !== "PHARMACIST") throw new TRPCError({ code: "FORBIDDEN", message: "This is for pharmacy users." });
  return next();
});

/** An organisation administrator (admin tool). */
export const adminProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.user.role !== "ADMIN") throw new TRPCError({ code: "FORBIDDEN", message: "This is for administrators." });
  return next();
});
