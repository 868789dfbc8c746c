/**
 * The few kinds of failure the domain reports. The REST kit maps each to the status code and the
 * body format of the calling API family; the domain never knows HTTP.
 */
export type FieldErrors = { [field: string]: string[] | FieldErrors };

export class DomainError extends Error {}

export class NotFoundError extends DomainError {
  constructor(message = "Resource not found") {
    super(message);
  }
}

/** A refused request (e.g. changing a cancelled order). `body` replaces the family's default body when set. */
export class BadRequestError extends DomainError {
  constructor(message = "Bad request", readonly body?: Record<string, unknown>) {
    super(message);
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

export class ConflictError extends DomainError {
  constructor(message: string, readonly extra: Record<string, unknown> = {}) {
    super(message);
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
