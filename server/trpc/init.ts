/**
 * tRPC for the portals: the context, the procedure kinds (who may call) and the one place where the
 * domain's errors become tRPC errors. Outputs are plain JSON (no transformer): dates as Unix seconds.
 */
import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import { errorTranslator, wordIn, type ErrorKey, type Message } from "@/i18n/error-text";
import { DEFAULT_LOCALE, type Locale } from "@/i18n/locales";
import { currentStateOfPortalUser, type PortalSessionUser } from "@/server/auth/portal-session";
import { pharmaciesInReach, type PharmacyReach, type ScopedPharmacy } from "@/server/domain/pharmacies/pharmacy-scope";
import {
  BadRequestError,
  ConflictError,
  DomainError,
  NotFoundError,
  UnprocessableError,
  UpstreamError,
  ValidationError,
  wordFields,
  type FieldErrors,
} from "@/server/domain/errors";
import { inCallLanguage, toFieldErrors } from "@/server/wire/field-errors";
import { inputTextErrors } from "@/server/wire/json-input";

/** What a procedure gets besides its input: the caller and their language (context.ts), nothing else. */
export type TrpcContext = { user: PortalSessionUser | null; locale: Locale };

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
            : error instanceof UpstreamError
              ? error.retryable
                ? "SERVICE_UNAVAILABLE"
                : "BAD_GATEWAY"
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
function fieldErrorsOf(cause: unknown, input: unknown, word: (message: Message) => string): FieldErrors | null {
  // Zod's messages are worded already, in the caller's language (inCallLanguage below).
  if (cause instanceof ZodError) return toFieldErrors(cause.issues);
  const fields =
    cause instanceof ValidationError ? cause.fieldMessages : cause instanceof UnprocessableError || cause instanceof ConflictError ? (cause.fieldMessages ?? null) : null;
  return fields && toInputPaths(wordFields(fields, word), input);
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

/** A refusal of the portal doors themselves, in the caller's language. */
export const portalRefusal = (code: TRPCError["code"], key: ErrorKey, locale: Locale) => new TRPCError({ code, message: errorTranslator(locale)(key) });

const t = initTRPC.context<TrpcContext>().create({
  errorFormatter({ shape, error, input, ctx }) {
    // No context when creating it failed: its own refusal (the rate limit) is worded already.
    const locale = ctx?.locale ?? DEFAULT_LOCALE;
    const word = wordIn(locale);
    const cause = error.cause;
    const internal = error.code === "INTERNAL_SERVER_ERROR";
    const fieldErrors = ["BAD_REQUEST", "UNPROCESSABLE_CONTENT", "CONFLICT"].includes(error.code) ? fieldErrorsOf(cause, input, word) : null;
    return {
      ...shape,
      // Unexpected failures do not reveal their internals (SQL, paths) to the browser. A domain
      // error's message by key is worded in the caller's language; the doors' own are already.
      message: internal
        ? errorTranslator(locale)("portal.internal")
        : cause instanceof ZodError
          ? errorTranslator(locale)("portal.invalidInput")
          : cause instanceof DomainError && cause.text
            ? word(cause.text)
            : shape.message,
      data: {
        ...shape.data,
        fieldErrors,
        // What the domain says the failure means, for the page to act on (e.g. order_cancelled).
        ...(cause instanceof DomainError && cause.code ? { reason: cause.code, details: cause.details } : {}),
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

/** The call, its input parsing included, with zod's messages in the caller's language. */
const callerLanguage = t.middleware(({ ctx, next }) => inCallLanguage(ctx.locale, next));

/** Anyone, signed in or not. */
export const publicProcedure = t.procedure.use(domainErrors).use(callerLanguage).use(storableInput);

/** A signed-in portal user who still exists, as they are now (currentStateOfPortalUser). */
export const authedProcedure = publicProcedure.use(async ({ ctx, next }) => {
  if (!ctx.user) throw portalRefusal("UNAUTHORIZED", "portal.signIn", ctx.locale);
  const user = await currentStateOfPortalUser(ctx.user.id, ctx.user.sessionVersion);
  if (!user) throw portalRefusal("UNAUTHORIZED", "portal.signIn", ctx.locale);
  return next({ ctx: { user } });
});

/**
 * Where a caller of a portal door acts, resolved once per call by the door's procedure: an
 * administrator over the whole organisation; a pharmacist over the pharmacies in reach (its own, or
 * all of its group's: the pharmacy scope rule, server/domain/pharmacies/pharmacy-scope.ts), which
 * a chosen pharmacy (an input's pharmacyUid) narrows. Routers mounted under both doors (the twins:
 * webhooks, delivery logs, stock) act through the scope, not through which door they are behind.
 */
export type OrganisationScope = { door: "admin"; organisationId: string };
export type PharmaciesScope = {
  door: "pharmacy";
  organisationId: string;
  /** The caller's binding, for domain functions that take the rule's input (API keys). */
  reach: PharmacyReach;
  /** Every pharmacy in reach, by name. */
  pharmacies: ScopedPharmacy[];
  /** All pharmacies in reach, or exactly the chosen one (out of reach: NotFoundError, as a pharmacy that does not exist). */
  pharmacyIds(chosen?: string | null): string[];
  /** The one pharmacy to act for: the chosen one, or the pharmacist's own; a group pharmacist must choose (else NotFoundError). */
  pharmacy(chosen?: string | null): ScopedPharmacy;
};
export type PortalScope = OrganisationScope | PharmaciesScope;

const organisationScope = (user: PortalSessionUser): OrganisationScope => ({ door: "admin", organisationId: user.organisationId });

async function pharmaciesScope(user: PortalSessionUser): Promise<PharmaciesScope> {
  const reach: PharmacyReach = { organisationId: user.organisationId, pharmacyId: user.pharmacyId, pharmacyGroupId: user.pharmacyGroupId };
  const pharmacies = await pharmaciesInReach(reach);
  const chosenIn = (chosen: string) => pharmacies.find((p) => p.id === chosen) ?? null;
  return {
    door: "pharmacy",
    organisationId: user.organisationId,
    reach,
    pharmacies,
    pharmacyIds: (chosen) => {
      if (chosen === undefined || chosen === null) return pharmacies.map((p) => p.id);
      if (!chosenIn(chosen)) throw new NotFoundError();
      return [chosen];
    },
    pharmacy: (chosen) => {
      const pharmacy = chosen ? chosenIn(chosen) : reach.pharmacyId ? chosenIn(reach.pharmacyId) : null;
      if (!pharmacy) throw new NotFoundError();
      return pharmacy;
    },
  };
}

/** A doctor acts for the Doctor they are bound to; a doctor's user without one is refused like another role. */
const doctorScope = (user: PortalSessionUser) => (user.doctorId ? { organisationId: user.organisationId, doctorId: user.doctorId } : null);

/**
 * Whose appointments a caller of the appointment twins (admin.appointments, doctor.appointments)
 * acts on: an administrator any doctor's of the organisation (doctorId null), a doctor only their own.
 */
export type DoctorsScope = { organisationId: string; doctorId: string | null };

/** One portal door: the role it admits (checked once) and the scope it resolves (once) into ctx.scope. */
type Door<S> = { role: PortalSessionUser["role"]; refusal: ErrorKey; scopeOf: (user: PortalSessionUser) => S | null | Promise<S | null> };

function door<S>({ role, refusal, scopeOf }: Door<S>) {
  return authedProcedure.use(async ({ ctx, next }) => {
    const scope = ctx.user.role === role ? await scopeOf(ctx.user) : null;
    if (!scope) throw portalRefusal("FORBIDDEN", refusal, ctx.locale);
    return next({ ctx: { scope } });
  });
}

const ADMIN_DOOR: Door<OrganisationScope> = { role: "ADMIN", refusal: "portal.adminsOnly", scopeOf: organisationScope };
const PHARMACY_DOOR: Door<PharmaciesScope> = { role: "PHARMACIST", refusal: "portal.pharmacistsOnly", scopeOf: pharmaciesScope };
const DOCTOR_DOOR = { role: "DOCTOR", refusal: "portal.doctorsOnly", scopeOf: doctorScope } satisfies Door<{ organisationId: string; doctorId: string }>;

/** An organisation administrator (admin tool); ctx.scope is the organisation. */
export const adminProcedure = door(ADMIN_DOOR);

/** A pharmacist (pharmacy portal); ctx.scope holds the pharmacies in reach. */
export const pharmacyProcedure = door(PHARMACY_DOOR);

/** A doctor bound to a Doctor of their organisation (the doctors' workspace); ctx.scope.doctorId is theirs. */
export const doctorProcedure = door(DOCTOR_DOOR);

/**
 * The door of a router mounted under both portals (a twin): adminProcedure's or pharmacyProcedure's
 * role check and scope, with ctx.scope typed as either, so one implementation serves both and acts
 * through the scope.
 */
export const portalProcedure = (portal: "admin" | "pharmacy") => door<PortalScope>(portal === "admin" ? ADMIN_DOOR : PHARMACY_DOOR);
export type PortalProcedure = ReturnType<typeof portalProcedure>;

/**
 * The door of a router mounted under the admin tool and the doctors' workspace (the appointments):
 * adminProcedure's or doctorProcedure's role check, with ctx.scope the doctors the caller acts for.
 */
export const doctorsProcedure = (portal: "admin" | "doctor") =>
  door<DoctorsScope>(portal === "admin" ? { ...ADMIN_DOOR, scopeOf: (user) => ({ organisationId: user.organisationId, doctorId: null }) } : DOCTOR_DOOR);
export type DoctorsProcedure = ReturnType<typeof doctorsProcedure>;
