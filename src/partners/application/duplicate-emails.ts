import { DuplicateEntryError } from '../../shared/domain/domain-error';
import { normalizeEmail } from '../../shared/domain/email';
import { firstDuplicateEmail, PartnerUserRequest } from '../domain/partner-user';
import { ConcurrentWriteConflict } from './concurrent-write-conflict';
import { PartnerUserRepository } from './partner-user-repository';

export const EMAIL_TAKEN = 'a user with this email address already exists';

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
  throw new DuplicateEntryError(
    `users[${index}].emailAddress`,
    repeated ? 'this email address appears more than once in users' : EMAIL_TAKEN,
  );
}

/** The field to name when a concurrent request took an address twice in a row (rare: see runRetryingConflict). */
export function fieldOfConflict(
  conflict: ConcurrentWriteConflict,
  requests: PartnerUserRequest[] | null,
  fallback: string,
): string {
  const index = (requests ?? []).findIndex(
    (r) => normalizeEmail(r.emailAddress) === conflict.emailNormalized,
  );
  return index >= 0 ? `users[${index}].emailAddress` : fallback;
}
