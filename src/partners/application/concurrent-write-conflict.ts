/**
 * A unique index refused a write because a concurrent request got there first (an email address
 * taken, a vendor connection made). The use case runs once more and then answers as the winner's
 * committed state says (DUPLICATE_ENTRY or D20 connect).
 */
export class ConcurrentWriteConflict extends Error {
  constructor(readonly emailNormalized?: string) {
    super(emailNormalized ? `email address taken concurrently` : 'vendor connection made concurrently');
    this.name = 'ConcurrentWriteConflict';
  }
}
