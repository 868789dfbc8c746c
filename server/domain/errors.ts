import type { ErrorText, Message } from "@/i18n/error-text";

/**
 * The few kinds of failure the domain reports. Each carries its meaning (a message for people, an
 * optional machine-readable `code` and `details`), never a response body: each door's error mapper
 * builds its own wire body from them (server/rest/kit.ts for the REST families, server/trpc/init.ts
 * for the portals). The domain never knows HTTP.
 *
 * A message is named by its key (`errorText("pharmacyOrders.cancelledNoCompletion")`, i18n/error-text.ts):
 * `message` and `fields` are its English wording, what the REST API sends; `text` and
 * `fieldMessages` keep the keys, which the portals word in the caller's language. This module imports
 * no catalogue: the browser loads it (field errors, json-input).
 */
export type FieldErrors = { [field: string]: string[] | FieldErrors };
/** Field messages as thrown: keyed, or plain strings (zod's, already worded). */
export type FieldMessages = { [field: string]: Message[] | FieldMessages };

export type ErrorMeaning = { code?: string; details?: Record<string, unknown> };

const englishOf = (message: Message): string => (typeof message === "string" ? message : message.english);

/** Field messages in one wording (English for the REST bodies; the portals' language in server/trpc/init.ts). */
export function wordFields(fields: FieldMessages, word: (message: Message) => string): FieldErrors {
  return Object.fromEntries(Object.entries(fields).map(([name, value]) => [name, Array.isArray(value) ? value.map(word) : wordFields(value, word)]));
}

export class DomainError extends Error {
  readonly code: string | undefined;
  readonly details: Record<string, unknown>;
  /** The message by key, for a door that words it in its reader's language; undefined for a plain string. */
  readonly text: ErrorText | undefined;
  constructor(message: Message, meaning: ErrorMeaning = {}) {
    super(englishOf(message));
    this.text = typeof message === "string" ? undefined : message;
    this.code = meaning.code;
    this.details = meaning.details ?? {};
  }
}

export class NotFoundError extends DomainError {
  constructor(message = "Resource not found") {
    super(message);
  }
}

/** A refused request (e.g. changing a cancelled order). */
export class BadRequestError extends DomainError {
  constructor(message: Message = "Bad request", meaning?: ErrorMeaning) {
    super(message, meaning);
  }
}

export class ValidationError extends DomainError {
  /** In English, as the REST bodies carry them. */
  readonly fields: FieldErrors;
  constructor(readonly fieldMessages: FieldMessages) {
    super("Validation failed");
    this.fields = wordFields(fieldMessages, englishOf);
  }
  static field(name: string, message: Message): ValidationError {
    return new ValidationError({ [name]: [message] });
  }
}

/**
 * The request clashes with the current state (a duplicate, a move the state does not allow). A
 * duplicate may name its fields, for forms to show the message beside them; REST bodies ignore them.
 */
export class ConflictError extends DomainError {
  readonly fields: FieldErrors | undefined;
  constructor(
    message: Message,
    meaning?: ErrorMeaning,
    readonly fieldMessages?: FieldMessages,
  ) {
    super(message, meaning);
    this.fields = fieldMessages && wordFields(fieldMessages, englishOf);
  }
}

/** Well-formed but unprocessable data (422), e.g. a corrupt PDF. */
export class UnprocessableError extends DomainError {
  readonly fields: FieldErrors | undefined;
  constructor(
    message: Message,
    readonly fieldMessages?: FieldMessages,
    meaning?: ErrorMeaning,
  ) {
    super(message, meaning);
    this.fields = fieldMessages && wordFields(fieldMessages, englishOf);
  }
}

/**
 * A service the command depends on (the shop's Shopify store, the organisation's trust service)
 * failed it: it refused the call or answered what cannot be used (`retryable` false: 502) or could
 * not be asked (`retryable` true: 503, retry later). Nothing of the command is left behind. The
 * code names the service: `<service>_refused` or `<service>_unavailable`.
 */
export class UpstreamError extends DomainError {
  constructor(
    message: Message,
    readonly retryable: boolean,
    service: "shop_platform" | "trust_service" = "shop_platform",
  ) {
    super(message, { code: `${service}_${retryable ? "unavailable" : "refused"}` });
  }
}

type Tree<M> = { [field: string]: M[] | Tree<M> };

/**
 * Collects field messages at nested paths (["fulfillments", 0, "items", 1, "quantity"]) into one
 * ValidationError. `M` is string for collectors of already-worded messages (zod's issues, json-input).
 */
export class FieldErrorCollector<M extends Message = Message> {
  readonly fields: Tree<M> = {};
  private count = 0;

  add(path: readonly (string | number)[], message: M): void {
    const keys = path.length > 0 ? path.map(String) : [NON_FIELD_ERRORS];
    let node: Tree<M> = this.fields;
    for (const key of keys.slice(0, -1)) {
      const next = node[key];
      if (!next || Array.isArray(next)) node[key] = {};
      node = node[key] as Tree<M>;
    }
    const leaf = keys[keys.length - 1];
    const existing = node[leaf];
    if (Array.isArray(existing)) {
      if (!existing.some((m) => englishOf(m) === englishOf(message))) existing.push(message);
    } else if (existing) {
      const nested = existing[NON_FIELD_ERRORS];
      existing[NON_FIELD_ERRORS] = Array.isArray(nested) ? [...nested, message] : [message];
    } else {
      node[leaf] = [message];
    }
    this.count += 1;
  }

  get empty(): boolean {
    return this.count === 0;
  }

  throwIfAny(): void {
    if (this.count > 0) throw new ValidationError(this.fields);
  }
}

/** Field key for errors that concern an object as a whole. */
export const NON_FIELD_ERRORS = "non_field_errors";
