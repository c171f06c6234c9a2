/** The vendor's display name, for the invite email. */
export abstract class VendorDirectory {
  abstract nameOf(vendorId: number): Promise<string>;
}
