/**
 * A contact: what an approved lead becomes (docs/api.md 10). It belongs to the lead's vendor and partner
 * and copies the lead's person and company fields at the moment of approval; there is exactly one
 * per lead (D32).
 */
export interface ContactSnapshot {
  id: number | undefined;
  vendorId: number;
  partnerId: number;
  leadId: number;
  firstName: string;
  lastName: string | null;
  emailAddress: string;
  /** D13, D28: the lower-cased email, compared with leads' to compute isDuplicate */
  emailNormalized: string;
  phoneNumber: string | null;
  linkedInUrl: string | null;
  jobTitle: string | null;
  companyName: string;
  websiteUrl: string | null;
  companySize: string | null;
  industry: string | null;
  city: string | null;
  state: string | null;
  country: string | null;
  createdAt: Date;
}

export type ContactConversion = Omit<ContactSnapshot, 'id' | 'createdAt'>;

export class Contact {
  private constructor(private state: ContactSnapshot) {}

  /** The contact an approved lead is converted into. */
  static convert(from: ContactConversion, now: Date): Contact {
    return new Contact({ ...from, id: undefined, createdAt: now });
  }

  static restore(snapshot: ContactSnapshot): Contact {
    return new Contact({ ...snapshot });
  }

  snapshot(): ContactSnapshot {
    return { ...this.state };
  }

  get id(): number | undefined {
    return this.state.id;
  }

  get leadId(): number {
    return this.state.leadId;
  }

  identify(id: number): void {
    if (this.state.id !== undefined) throw new Error(`contact ${this.state.id} already has an id`);
    this.state = { ...this.state, id };
  }
}
