import { Injectable } from '@nestjs/common';
import type { AuthenticatedKey } from '../../shared/application/api-key-authenticator';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { ApiKeyRepository } from './api-key-repository';

const LAST_USED_RESOLUTION_MS = 60_000;

/**
 * Records that an accepted key was used now: its lastUsedAt, kept to the minute, so one small write
 * a minute per key, not one per request. A key used within the minute writes nothing.
 */
@Injectable()
export class RecordApiKeyUseUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly apiKeys: ApiKeyRepository,
  ) {}

  async execute(key: AuthenticatedKey): Promise<void> {
    const now = this.clock.now();
    if (key.lastUsedAt && now.getTime() - key.lastUsedAt.getTime() < LAST_USED_RESOLUTION_MS) return;
    await this.uow.run(() =>
      this.apiKeys.recordUse(key.keyId, now, new Date(now.getTime() - LAST_USED_RESOLUTION_MS)),
    );
  }
}
