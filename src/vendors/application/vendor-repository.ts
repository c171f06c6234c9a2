import type { Vendor } from '../domain/vendor';

export abstract class VendorRepository {
  abstract insert(vendor: Vendor): Promise<Vendor>;
  abstract exists(vendorId: number): Promise<boolean>;
}
