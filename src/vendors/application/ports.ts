import type { ApiKey } from '../domain/api-key';
import type { LeadOption, LeadOptionKind } from '../domain/lead-option';
import type { Vendor } from '../domain/vendor';

export abstract class VendorRepository {
  abstract insert(vendor: Vendor): Promise<Vendor>;
  abstract exists(vendorId: number): Promise<boolean>;
}

export abstract class ApiKeyRepository {
  abstract insert(key: {
    vendorId: number;
    keyHash: string;
    keyPrefix: string;
    createdAt: Date;
  }): Promise<ApiKey>;
  /** The key with this hash unless it is revoked. */
  abstract findActiveByHash(keyHash: string): Promise<ApiKey | null>;
  /** Marks the key revoked; false when no active key has this hash. */
  abstract revokeByHash(keyHash: string, at: Date): Promise<boolean>;
  /** Sets lastUsedAt to `at` unless it was already set after `unlessAfter` (one write a minute at most). */
  abstract touch(keyId: number, at: Date, unlessAfter: Date): Promise<void>;
}

export abstract class LeadOptionRepository {
  abstract insert(option: Omit<LeadOption, 'id'>, createdAt: Date): Promise<LeadOption>;
  abstract listForVendor(vendorId: number): Promise<LeadOption[]>;
  /** The options among `ids` that belong to the vendor and are of the given kind. */
  abstract findForVendor(vendorId: number, kind: LeadOptionKind, ids: number[]): Promise<LeadOption[]>;
}
