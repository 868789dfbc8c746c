/**
 * The few kinds of failure the domain reports. Each carries its meaning (a message for people, an
 * optional machine-readable `code` and `details`), never a response body: each door's error mapper
 * builds its own wire body from them (server/rest/kit.ts for the REST families, server/trpc/init.ts
 * for the portals). The domain never knows HTTP.
 */
export type FieldErrors = { [field: string]: string[] | FieldErrors };

export type ErrorMeaning = { code?: string; details?: Record<string, unknown> };

export class DomainError extends Error {
  readonly code: string | undefined;
  readonly details: Record<string, unknown>;
  constructor(message: string, meaning: ErrorMeaning = {}) {
    super(message);
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
  constructor(message = "Bad request", meaning?: ErrorMeaning) {
    super(message, meaning);
  }
}

export class ValidationError extends DomainError {
  constructor(readonly fields: FieldErrors) {
    super("Validation failed");
  }
  static field(name: string, message: string): ValidationError {
    return new ValidationError({ [name]: [message] });
  }
}

/**
 * The request clashes with the current state (a duplicate, a move the state does not allow). A
 * duplicate may name its fields, for forms to show the message beside them; REST bodies ignore them.
 */
export class ConflictError extends DomainError {
  constructor(
    message: string,
    meaning?: ErrorMeaning,
    readonly fields?: FieldErrors,
  ) {
    super(message, meaning);
  }
}

/** Well-formed but unprocessable data (422), e.g. a corrupt PDF. */
export class UnprocessableError extends DomainError {
  constructor(message: string, readonly fields?: FieldErrors) {
    super(message);
  }
}

/** Collects field errors at nested paths (["fulfillments", 0, "items", 1, "quantity"]) into one ValidationError. */
export class FieldErrorCollector {
  readonly fields: FieldErrors = {};
  private count = 0;

  add(path: readonly (string | number)[], message: string): void {
    const keys = path.length > 0 ? path.map(String) : [NON_FIELD_ERRORS];
    let node: FieldErrors = this.fields;
    for (const key of keys.slice(0, -1)) {
      const next = node[key];
      if (!next || Array.isArray(next)) node[key] = {};
      node = node[key] as FieldErrors;
    }
    const leaf = keys[keys.length - 1];
    const existing = node[leaf];
    if (Array.isArray(existing)) {
      if (!existing.includes(message)) existing.push(message);
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
