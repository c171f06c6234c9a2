import { SHORT_TEXT, codePointLength } from '../../shared/domain/text';
import { ValidationError } from '../../shared/domain/domain-error';

export class Vendor {
  private constructor(
    readonly id: number | undefined,
    readonly name: string,
    readonly createdAt: Date,
  ) {}

  static register(name: string, now: Date): Vendor {
    if (name.trim() === '') throw ValidationError.of('name', 'must not be blank');
    if (codePointLength(name) > SHORT_TEXT)
      throw ValidationError.of('name', `must be at most ${SHORT_TEXT} characters`);
    return new Vendor(undefined, name, now);
  }

  static restore(snapshot: { id: number; name: string; createdAt: Date }): Vendor {
    return new Vendor(snapshot.id, snapshot.name, snapshot.createdAt);
  }
}
