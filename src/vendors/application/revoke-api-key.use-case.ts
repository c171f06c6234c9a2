import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { NotFoundError } from '../../shared/domain/domain-error';
import { ApiKeySecret } from '../domain/api-key';
import { ApiKeyRepository } from './api-key-repository';

@Injectable()
export class RevokeApiKeyUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly apiKeys: ApiKeyRepository,
  ) {}

  /**
   * D9: refused from the next request on. The revocation is a commit, and a valid key is trusted from
   * memory only while nothing was committed (AuthenticateApiKeyUseCase).
   */
  execute(apiKey: string): Promise<{ revoked: true }> {
    return this.uow.run(async () => {
      const revoked = await this.apiKeys.revokeByHash(ApiKeySecret.hash(apiKey), this.clock.now());
      if (!revoked) throw new NotFoundError('active API key');
      return { revoked: true };
    });
  }
}
