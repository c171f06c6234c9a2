import { Injectable } from '@nestjs/common';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { NotFoundError } from '../../shared/domain/domain-error';
import { ApiKeyRepository } from './api-key-repository';
import { VendorRepository } from './vendor-repository';

/**
 * One key as `api-keys:list` prints it (docs/configuration.md#api-keys-list): never the secret or
 * its hash. Keys have no name, scope list or expiry yet, so `name`, `scopes` and `expiresAt` are
 * null for every key (such a key may call every route and never expires); the fields are there so
 * that the shape stays when those are built.
 */
export interface ApiKeyListing {
  id: number;
  name: null;
  /** the start of the secret kept in clear, as X12's apiKeyPrefix */
  prefix: string;
  scopes: null;
  createdAt: Date;
  expiresAt: null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** The CLI's `api-keys:list`: a vendor's keys, revoked ones included, newest first. */
@Injectable()
export class ListApiKeysUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly vendors: VendorRepository,
    private readonly apiKeys: ApiKeyRepository,
  ) {}

  execute(vendorId: number): Promise<{ data: ApiKeyListing[] }> {
    return this.uow.read(async () => {
      if (!(await this.vendors.exists(vendorId))) throw new NotFoundError('vendor');
      const keys = await this.apiKeys.listForVendor(vendorId);
      return {
        data: keys.map((key) => ({
          id: key.id,
          name: null,
          prefix: key.keyPrefix,
          scopes: null,
          createdAt: key.createdAt,
          expiresAt: null,
          lastUsedAt: key.lastUsedAt,
          revokedAt: key.revokedAt,
        })),
      };
    });
  }
}
