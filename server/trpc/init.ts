/**
 * tRPC for the portals: the context, the procedure kinds (who may call) and the one place where the
 * domain's errors become tRPC errors. Outputs are plain JSON (no transformer): dates as Unix seconds.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { currentStateOfPortalUser, type PortalSessionUser } from "@/server/auth/portal-session";
import {
  BadRequestError,
  ConflictError,
  DomainError,
  NotFoundError,
  UnprocessableError,
  ValidationError,
  type FieldErrors,
} from "@/server/domain/errors";
import { toFieldErrors } from "@/server/wire/field-errors";
import { inputTextErrors } from "@/server/wire/json-input";

/** What a procedure gets besides its input: the caller, nothing else. */
export type TrpcContext = { user: PortalSessionUser | null };

/** A domain error as the tRPC error a caller sees; the domain error stays its cause. */
function toTrpcError(error: DomainError): TRPCError {
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

/** Field messages of a refused input: our ValidationError/UnprocessableError/ConflictError (a duplicate), or the input schema's zod issues. */
function fieldErrorsOf(cause: unknown): FieldErrors | null {
  if (cause instanceof ValidationError) return cause.fields;
  if (cause instanceof UnprocessableError || cause instanceof ConflictError) return cause.fields ?? null;
  if (cause instanceof ZodError) return toFieldErrors(cause.issues);
  return null;
}

const t = initTRPC.context<TrpcContext>().create({
  errorFormatter({ shape, error }) {
    const internal = error.code === "INTERNAL_SERVER_ERROR";
    const fieldErrors = ["BAD_REQUEST", "UNPROCESSABLE_CONTENT", "CONFLICT"].includes(error.code) ? fieldErrorsOf(error.cause) : null;
    return {
      ...shape,
      // Unexpected failures do not reveal their internals (SQL, paths) to the browser.
      message: internal ? "Internal server error" : error.cause instanceof ZodError ? "Invalid input" : shape.message,
      data: {
        ...shape.data,
        fieldErrors,
        // What the domain says the failure means, for the page to act on (e.g. order_cancelled).
        ...(error.cause instanceof DomainError && error.cause.code ? { reason: error.cause.code, details: error.cause.details } : {}),
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

/**
 * Text PostgreSQL cannot store (NUL, lone surrogates) or nesting past the bound, anywhere in the raw
 * input: refused before the input schema runs, like the REST kit does (server/wire/json-input.ts).
 */
const storableInput = t.middleware(async ({ getRawInput, next }) => {
  const fields = inputTextErrors(await getRawInput());
  if (fields) throw new ValidationError(fields);
  return next();
});

/** Anyone, signed in or not. */
export const publicProcedure = t.procedure.use(domainErrors).use(storableInput);

/** A signed-in portal user who still exists, as they are now (currentStateOfPortalUser). */
export const authedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in to continue." });
  const user = await currentStateOfPortalUser(ctx.user.id, ctx.user.sessionVersion);
  if (!user) throw new TRPCError({ code: "UNAUTHORIZED", message: "Sign in to continue." });
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

/** A doctor bound to a Doctor of their organisation (the doctors' workspace); ctx.doctorId is theirs. */
export const doctorProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.user.role !== "DOCTOR" || !ctx.user.doctorId) throw new TRPCError({ code: "FORBIDDEN", message: "This is for doctors." });
  return next({ ctx: { doctorId: ctx.user.doctorId } });
});
