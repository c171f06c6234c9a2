/** One offending request field, as it appears in the standard error shape. */
export interface FieldError {
  field: string;
  error: string;
}

/**
 * Every error a use case may raise on purpose. `kind` is the discriminant the HTTP edge switches on
 * (exhaustively), so adding a kind without mapping it fails to compile.
 */
export type DomainErrorKind = 'validation' | 'not_found' | 'duplicate' | 'invalid_state_transition';

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
  protected constructor(
    message: string,
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Input that is well-formed JSON but breaks a rule (D13-D18, D15). */
export class ValidationError extends DomainError {
  readonly kind = 'validation';
  constructor(fieldErrors: FieldError[]) {
    super(fieldErrors.map((e) => `${e.field}: ${e.error}`).join('; ') || 'validation failed', fieldErrors);
  }

  static of(field: string, error: string): ValidationError {
    return new ValidationError([{ field, error }]);
  }
}

/** A resource that does not exist or is not visible to the caller (D25, D27). */
export class NotFoundError extends DomainError {
  readonly kind = 'not_found';
  constructor(resource: string, field?: string, error?: string) {
    super(`${resource} not found`, field ? [{ field, error: error ?? `${resource} not found` }] : []);
  }
}

/** A unique value that is already taken (D20, D21, D27). */
export class DuplicateEntryError extends DomainError {
  readonly kind = 'duplicate';
  constructor(field: string, error: string) {
    super(error, [{ field, error }]);
  }
}

/** A move the lead's transition table forbids (D30). */
export class InvalidStateTransitionError extends DomainError {
  readonly kind = 'invalid_state_transition';
  constructor(
    readonly from: string,
    readonly operation: string,
  ) {
    super(`cannot ${operation} a lead that is ${from}`);
  }
}
