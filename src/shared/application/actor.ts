/**
 * Who makes a change: the vendor it is made for, and the display prefix of the API key that made it
 * (D9), or null when it was made by the admin CLI, which has no key. Write use cases whose changes a
 * history records (X12) take it instead of a bare vendor id.
 */
export interface Actor {
  vendorId: number;
  apiKeyPrefix: string | null;
}
