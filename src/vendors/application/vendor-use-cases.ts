import { Injectable } from '@nestjs/common';
import type { AuthenticatedKey } from '../../shared/application/api-key-authenticator';
import { UnitOfWork } from '../../shared/application/unit-of-work';
import { Clock } from '../../shared/domain/clock';
import { NotFoundError } from '../../shared/domain/domain-error';
import { ApiKeySecret } from '../domain/api-key';
import { LeadOption, validateLeadOption } from '../domain/lead-option';
import { Vendor } from '../domain/vendor';
import { ApiKeyRepository, LeadOptionRepository, VendorRepository } from './ports';

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
      const vendor = await this.vendors.insert(Vendor.register(name, now));
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

@Injectable()
export class RevokeApiKeyUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly apiKeys: ApiKeyRepository,
  ) {}

  /** D9: refused from the next request on (keys are looked up on every request, never cached). */
  execute(apiKey: string): Promise<{ revoked: true }> {
    return this.uow.run(async () => {
      const revoked = await this.apiKeys.revokeByHash(ApiKeySecret.hash(apiKey), this.clock.now());
      if (!revoked) throw new NotFoundError('active API key');
      return { revoked: true };
    });
  }
}

const LAST_USED_RESOLUTION_MS = 60_000;
const REFUSED_KEYS_REMEMBERED = 10_000;

@Injectable()
export class AuthenticateApiKeyUseCase {
  /**
   * Hashes of presented keys that were unknown or revoked. Such a key can never become valid: keys
   * are 256 random bits made by the service (D9), and a revocation is final. So a client repeating
   * a wrong key is refused from memory, without a query; a valid key is looked up on every request,
   * which is what makes a revocation effective from the next request on, on every instance.
   * Bounded, oldest forgotten first.
   */
  private readonly refused = new Set<string>();

  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly apiKeys: ApiKeyRepository,
  ) {}

  /** The vendor the key belongs to and the key's display prefix, or null for an unknown or revoked key. */
  async execute(presented: string): Promise<AuthenticatedKey | null> {
    const hash = ApiKeySecret.hash(presented);
    if (this.refused.has(hash)) return null;
    const key = await this.uow.read(() => this.apiKeys.findActiveByHash(hash));
    if (!key) {
      this.remember(hash);
      return null;
    }
    const now = this.clock.now();
    if (!key.lastUsedAt || now.getTime() - key.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
      // lastUsedAt is kept to the minute: one small write a minute per key, not one per request.
      await this.uow.run(() =>
        this.apiKeys.touch(key.id, now, new Date(now.getTime() - LAST_USED_RESOLUTION_MS)),
      );
    }
    return { vendorId: key.vendorId, keyPrefix: key.keyPrefix };
  }

  private remember(hash: string): void {
    if (this.refused.size >= REFUSED_KEYS_REMEMBERED) {
      this.refused.delete(this.refused.values().next().value!);
    }
    this.refused.add(hash);
  }
}

@Injectable()
export class CreateLeadOptionUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly clock: Clock,
    private readonly vendors: VendorRepository,
    private readonly options: LeadOptionRepository,
  ) {}

  execute(vendorId: number, kind: string, label: string): Promise<{ id: number }> {
    const valid = validateLeadOption(kind, label);
    return this.uow.run(async () => {
      if (!(await this.vendors.exists(vendorId))) throw new NotFoundError('vendor');
      const option = await this.options.insert({ vendorId, ...valid }, this.clock.now());
      return { id: option.id };
    });
  }
}

/** X11: the vendor's lead sources and statuses, ordered by id, for the API (the vendor is the caller's). */
@Injectable()
export class GetLeadOptionsUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly options: LeadOptionRepository,
  ) {}

  execute(vendorId: number): Promise<LeadOption[]> {
    return this.uow.read(() => this.options.listForVendor(vendorId));
  }
}

@Injectable()
export class ListLeadOptionsUseCase {
  constructor(
    private readonly uow: UnitOfWork,
    private readonly vendors: VendorRepository,
    private readonly options: LeadOptionRepository,
  ) {}

  execute(vendorId: number): Promise<{ data: Pick<LeadOption, 'id' | 'kind' | 'label'>[] }> {
    return this.uow.run(async () => {
      if (!(await this.vendors.exists(vendorId))) throw new NotFoundError('vendor');
      const options = await this.options.listForVendor(vendorId);
      return { data: options.map(({ id, kind, label }) => ({ id, kind, label })) };
    });
  }
}
