/**
 * What other modules may ask about a vendor, through the vendors module's public face: whether it
 * exists (the bulk import, X13) and its display name (the invite email).
 */
export abstract class VendorDirectory {
  abstract exists(vendorId: number): Promise<boolean>;
  /** The vendor's name; an Error when there is no such vendor (a caller holds a vendor id it was given). */
  abstract nameOf(vendorId: number): Promise<string>;
}
