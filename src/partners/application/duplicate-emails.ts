import { DuplicateEntryError } from '../../shared/domain/domain-error';
import { normalizeEmail } from '../../shared/domain/email';
import { firstDuplicateEmail, PartnerUserRequest } from '../domain/partner-user';
import { ConcurrentWriteConflict } from './concurrent-write-conflict';
import { PartnerUserRepository } from './partner-user-repository';

export const EMAIL_TAKEN = 'a user with this email address already exists';

/**
 * D21: the email address of the user at `userIndex` of the request's list is taken or repeats an
 * earlier one. The use case knows the list's order, not how a request names its fields: the HTTP
 * edge names the field (`users[2].emailAddress`, D13) with `userEmailField`.
 */
export class UserEmailConflictError extends DuplicateEntryError {
  constructor(
    readonly userIndex: number,
    error: string,
  ) {
    super('emailAddress', error);
  }
}

/** D21: refuses the whole list when any address is taken or repeats (naming the later occurrence). */
export async function assertNoDuplicateEmails(
  users: PartnerUserRepository,
  requests: PartnerUserRequest[],
): Promise<void> {
  if (requests.length === 0) return;
  const taken = await users.takenEmails(requests.map((r) => normalizeEmail(r.emailAddress)));
  const index = firstDuplicateEmail(requests, taken);
  if (index === undefined) return;
  const repeated = !taken.has(normalizeEmail(requests[index]!.emailAddress));
  throw new UserEmailConflictError(
    index,
    repeated ? 'this email address appears more than once in users' : EMAIL_TAKEN,
  );
}

/**
 * The answer when a concurrent request took an address twice in a row (rare: see
 * runRetryingConflict): the requested user with that address, or else the `fallback` field.
 */
export function errorOfConflict(
  conflict: ConcurrentWriteConflict,
  requests: PartnerUserRequest[] | null,
  fallback: string,
): DuplicateEntryError {
  const error = 'the email address was taken by a concurrent request';
  const index = (requests ?? []).findIndex(
    (r) => normalizeEmail(r.emailAddress) === conflict.emailNormalized,
  );
  return index >= 0 ? new UserEmailConflictError(index, error) : new DuplicateEntryError(fallback, error);
}
