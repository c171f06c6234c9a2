import { UnitOfWork } from '../../shared/application/unit-of-work';
import { DomainError } from '../../shared/domain/domain-error';
import { ConcurrentWriteConflict } from './concurrent-write-conflict';

/**
 * Runs `work` in a transaction; when a concurrent request took a unique value first, runs it once
 * more, so the checks see the winner's committed rows and answer as they would have sequentially
 * (DUPLICATE_ENTRY naming the right field, or a D20 connect). A second conflict becomes `toError`.
 */
export async function runRetryingConflict<T>(
  uow: UnitOfWork,
  work: () => Promise<T>,
  toError: (conflict: ConcurrentWriteConflict) => DomainError,
): Promise<T> {
  try {
    return await uow.run(work);
  } catch (error) {
    if (!(error instanceof ConcurrentWriteConflict)) throw error;
  }
  try {
    return await uow.run(work);
  } catch (error) {
    if (error instanceof ConcurrentWriteConflict) throw toError(error);
    throw error;
  }
}
