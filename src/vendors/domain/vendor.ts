import { SHORT_TEXT, codePointLength, isBlank } from '../../shared/domain/text';
import { ValidationError } from '../../shared/domain/domain-error';

export interface VendorSnapshot {
  id: number;
  name: string;
  createdAt: Date;
}

/** A company that uses the service: its partners, leads and API keys are its own (D25, D27). */
export class Vendor {
  private constructor(private state: Omit<VendorSnapshot, 'id'> & { id: number | undefined }) {}

  static register(name: string, now: Date): Vendor {
    if (isBlank(name)) throw ValidationError.of('name', 'must not be blank');
    if (codePointLength(name) > SHORT_TEXT)
      throw ValidationError.of('name', `must be at most ${SHORT_TEXT} characters`);
    return new Vendor({ id: undefined, name, createdAt: now });
  }

  static restore(snapshot: VendorSnapshot): Vendor {
    return new Vendor({ ...snapshot });
  }

  get id(): number | undefined {
    return this.state.id;
  }
  get name(): string {
    return this.state.name;
  }
  get createdAt(): Date {
    return this.state.createdAt;
  }

  /** Sets the id the database gave a newly inserted vendor. */
  identify(id: number): void {
    if (this.state.id !== undefined) throw new Error(`vendor ${this.state.id} already has an id`);
    this.state = { ...this.state, id };
  }
}
