import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { NotFoundError } from '../../shared/domain/domain-error';
import { ApiKeySecret } from '../domain/api-key';
import { ApiKeyRepository } from './api-key-repository';
import { VendorRepository } from './vendor-repository';

@Injectable()
export class CreateApiKeyUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly vendors: VendorRepository,
    private readonly apiKeys: ApiKeyRepository,
  ) {}

  /** Another active key for the vendor (D9: several keys allow rotation). */
  execute(vendorId: number): Promise<{ apiKey: string }> {
    return this.uow.run(async () => {
      if (!(await this.vendors.exists(vendorId))) throw new NotFoundError('vendor');
      const secret = ApiKeySecret.generate();
      await this.apiKeys.insert({
        vendorId,
        keyHash: secret.hash,
        keyPrefix: secret.displayPrefix,
        createdAt: this.clock.now(),
      });
      return { apiKey: secret.value };
    });
  }
}
