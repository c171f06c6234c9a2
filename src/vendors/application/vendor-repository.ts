import type { Vendor } from '../domain/vendor';

export abstract class VendorRepository {
  /** Stores a new vendor and gives it its id (identify); returns it. */
  abstract insert(vendor: Vendor): Promise<Vendor>;
  abstract exists(vendorId: number): Promise<boolean>;
  /** Every vendor, oldest first (by id). */
  abstract list(): Promise<Vendor[]>;
}
