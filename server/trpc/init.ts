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

/**
 * Field messages of a refused input, under the input's own path: the input schema's zod issues as
 * they are; our ValidationError/UnprocessableError/ConflictError (a duplicate), whose fields are
 * named as on the REST wire (snake_case), in camelCase as the tRPC inputs are (`display_name` →
 * `displayName`), except where the input itself has the snake_case key (the address's
 * `postal_code`) and `non_field_errors`: a form finds every message under its own field's path, one casing.
 */
function fieldErrorsOf(cause: unknown, input: unknown): FieldErrors | null {
  if (cause instanceof ZodError) return toFieldErrors(cause.issues);
  const fields = cause instanceof ValidationError ? cause.fields : cause instanceof UnprocessableError || cause instanceof ConflictError ? (cause.fields ?? null) : null;
  return fields && toInputPaths(fields, input);
}

/** Messages about the input as a whole, under the key the REST bodies use: no field to rename. */
const NON_FIELD_ERRORS = "non_field_errors";

const camelCase = (name: string) => name.replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());

function toInputPaths(fields: FieldErrors, input: unknown): FieldErrors {
  const inputObject = typeof input === "object" && input !== null ? (input as Record<string, unknown>) : {};
  return Object.fromEntries(
    Object.entries(fields).map(([name, value]) => {
      const key = name in inputObject || name === NON_FIELD_ERRORS ? name : camelCase(name);
      return [key, Array.isArray(value) ? value : toInputPaths(value, inputObject[key])];
    }),
  );
}

const t = initTRPC.context<TrpcContext>().create({
  errorFormatter({ shape, error, input }) {
    const internal = error.code === "INTERNAL_SERVER_ERROR";
    const fieldErrors = ["BAD_REQUEST", "UNPROCESSABLE_CONTENT", "CONFLICT"].includes(error.code) ? fieldErrorsOf(error.cause, input) : null;
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
