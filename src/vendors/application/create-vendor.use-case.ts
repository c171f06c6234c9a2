import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { ApiKeySecret } from '../domain/api-key';
import { Vendor } from '../domain/vendor';
import { ApiKeyRepository } from './api-key-repository';
import { VendorRepository } from './vendor-repository';

@Injectable()
export class CreateVendorUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly vendors: VendorRepository,
    private readonly apiKeys: ApiKeyRepository,
  ) {}

  /** A vendor with its first API key; the key is returned once and never stored in clear. */
  execute(name: string): Promise<{ vendorId: number; apiKey: string }> {
    return this.uow.run(async () => {
      const now = this.clock.now();
      const vendor = Vendor.register(name, now);
      await this.vendors.insert(vendor);
      const secret = ApiKeySecret.generate();
      await this.apiKeys.insert({
        vendorId: vendor.id!,
        keyHash: secret.hash,
        keyPrefix: secret.displayPrefix,
        createdAt: now,
      });
      return { vendorId: vendor.id!, apiKey: secret.value };
    });
  }
}
