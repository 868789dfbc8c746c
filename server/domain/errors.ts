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
