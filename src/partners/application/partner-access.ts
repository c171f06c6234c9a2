/**
 * Port the partners use cases and other modules (leads) use to ask whether a partner is visible to
 * a vendor: it exists and is connected to that vendor (D25). Anything else is answered as "not
 * found" by the caller.
 */
export abstract class PartnerAccess {
  abstract isConnected(vendorId: number, partnerId: number): Promise<boolean>;
}
