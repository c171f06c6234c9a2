import { InvalidStateTransitionError } from '../../shared/domain/domain-error';
import { foldCase } from '../../shared/domain/text';
import {
  LeadDetails,
  LeadDetailsPatch,
  WRITABLE_FIELDS_IN_LEAD_ORDER,
  checkLeadDetails,
  checkedDetails,
  completeDetails,
  detailsOf,
} from './lead-details';
import { LeadChange, LeadHistoryAction } from './lead-history';
import { ApprovalStatus, LeadOperation, transitionOf } from './lead-transitions';

export const SUBMITTED_BY_TYPES = ['PARTNER_USER', 'VENDOR_USER', 'INTEGRATION', 'SYSTEM', 'API'] as const;
export type SubmittedByType = (typeof SUBMITTED_BY_TYPES)[number];

/** Everything a stored lead holds; what repositories read and write. */
export interface LeadSnapshot extends LeadDetails {
  id: number | undefined;
  vendorId: number;
  partnerId: number;
  approvalStatus: ApprovalStatus;
  archived: boolean;
  rejectReason: string | null;
  rejectComment: string | null;
  lastActiveAt: Date | null;
  submittedByType: SubmittedByType | null;
  createdAt: Date;
  updatedAt: Date;
}

/** approve: `approved` the first time, `already_approved` on a retry (same contact, D32). */
export type ApproveOutcome = 'approved' | 'already_approved';
/** reject: `rejected` the first time, `already_rejected` on a retry (first comment kept, D32). */
export type RejectOutcome = 'rejected' | 'already_rejected';

const NO_FIELDS: readonly (keyof LeadDetails)[] = Object.freeze([]);

/**
 * A lead a partner submitted for a vendor (D27: one vendor, one partner). It owns its approval state
 * machine (see lead-transitions.ts) and its `updatedAt`, which moves only when something really
 * changes (D34). Each operation that changes it records a LeadChange, the lead's history entry
 * (X12); one that changes nothing records none.
 */
export class Lead {
  private constructor(
    private state: LeadSnapshot,
    private readonly recorded: LeadChange[],
  ) {}

  /** D26: a new lead is PENDING, active, submitted through the API, with no reject data. */
  static submit(
    input: { vendorId: number; partnerId: number; details: Partial<LeadDetails> },
    now: Date,
  ): Lead {
    const details = checkedDetails(completeDetails(input.details));
    // The fixed fields first and the spread last: the other way round V8 adds a dozen properties to
    // the spread's copy one by one and falls back to a dictionary object, 50 µs per lead (the bulk
    // import of a million leads spent most of its time here).
    const created: LeadChange = {
      action: 'CREATED',
      at: now,
      approvalStatusFrom: null,
      approvalStatusTo: 'PENDING',
      archived: false,
      comment: null,
      changedFields: NO_FIELDS,
    };
    return new Lead(
      {
        id: undefined,
        vendorId: input.vendorId,
        partnerId: input.partnerId,
        approvalStatus: 'PENDING',
        archived: false,
        rejectReason: null,
        rejectComment: null,
        lastActiveAt: null,
        submittedByType: 'API',
        createdAt: now,
        updatedAt: now,
        ...details,
      },
      [created],
    );
  }

  static restore(snapshot: LeadSnapshot): Lead {
    return new Lead({ ...snapshot }, []);
  }

  /**
   * X12: what the operations on this object changed, oldest first: CREATED for a lead made by
   * `submit`, then one entry per operation that changed something. Reading it changes nothing, so a
   * transaction run again (a MySQL deadlock victim) records the same entries.
   */
  get changes(): readonly LeadChange[] {
    return this.recorded;
  }

  snapshot(): LeadSnapshot {
    return { ...this.state };
  }

  get id(): number | undefined {
    return this.state.id;
  }
  get vendorId(): number {
    return this.state.vendorId;
  }
  get partnerId(): number {
    return this.state.partnerId;
  }
  get approvalStatus(): ApprovalStatus {
    return this.state.approvalStatus;
  }
  get archived(): boolean {
    return this.state.archived;
  }
  get rejectComment(): string | null {
    return this.state.rejectComment;
  }
  get updatedAt(): Date {
    return this.state.updatedAt;
  }
  get details(): LeadDetails {
    return detailsOf(this.state);
  }
  /** D13, D27: the email as compared for duplicates. */
  get emailNormalized(): string {
    return foldCase(this.state.emailAddress);
  }
  /** D33: the first name as searched by keyword. */
  get firstNameNormalized(): string {
    return foldCase(this.state.firstName);
  }

  /** Sets the id the database gave a newly inserted lead. */
  identify(id: number): void {
    if (this.state.id !== undefined) throw new Error(`lead ${this.state.id} already has an id`);
    this.state = { ...this.state, id };
  }

  /** PUT (docs/api.md 8, D29): every writable field is replaced, omitted ones cleared. Returns whether anything changed. */
  replace(input: Partial<LeadDetails>, now: Date): boolean {
    return this.applyDetails(checkedDetails(completeDetails(input)), now, 'REPLACED');
  }

  /** PATCH (docs/api.md 9, D29): only the fields present change. Returns whether anything changed. */
  update(patch: LeadDetailsPatch, now: Date): boolean {
    checkLeadDetails(patch, false);
    return this.applyDetails(patch, now, 'UPDATED');
  }

  approve(now: Date): ApproveOutcome {
    const rule = this.ruleFor('approve');
    if (rule.kind === 'retry') return 'already_approved';
    if (rule.kind !== 'move') throw new Error(`approve has no rule ${rule.kind}`);
    this.change({ approvalStatus: rule.to }, now, 'APPROVED');
    return 'approved';
  }

  /** D32: on a retry the comment that landed first is kept, whatever this one says. */
  reject(comment: string | null, now: Date): RejectOutcome {
    const rule = this.ruleFor('reject');
    if (rule.kind === 'retry') return 'already_rejected';
    if (rule.kind !== 'move') throw new Error(`reject has no rule ${rule.kind}`);
    this.change({ approvalStatus: rule.to, rejectComment: comment }, now, 'REJECTED');
    return 'rejected';
  }

  /** Archiving an archived lead succeeds and changes nothing (docs/api.md 12). Returns whether it changed. */
  archive(now: Date): boolean {
    this.ruleFor('archive');
    if (this.state.archived) return false;
    this.change({ archived: true }, now, 'ARCHIVED');
    return true;
  }

  /** The table's rule for this operation; a `conflict` is thrown here (D30). */
  private ruleFor(operation: LeadOperation) {
    const rule = transitionOf(this.state.approvalStatus, operation);
    if (rule.kind === 'conflict') throw new InvalidStateTransitionError(this.state.approvalStatus, operation);
    return rule;
  }

  /** Replace/update never reach approvalStatus or archived: only writable fields are copied. */
  private applyDetails(input: LeadDetailsPatch, now: Date, action: LeadHistoryAction): boolean {
    const changes: Partial<LeadSnapshot> = {};
    const changedFields: (keyof LeadDetails)[] = [];
    for (const field of WRITABLE_FIELDS_IN_LEAD_ORDER) {
      const value = input[field];
      if (value !== undefined && value !== this.state[field]) {
        (changes as Record<string, unknown>)[field] = value;
        changedFields.push(field);
      }
    }
    if (changedFields.length === 0) return false;
    this.change(changes, now, action, changedFields);
    return true;
  }

  /** Applies a change and records it (X12): the state after it, and the approvalStatus before it. */
  private change(
    changes: Partial<LeadSnapshot>,
    now: Date,
    action: LeadHistoryAction,
    changedFields: readonly (keyof LeadDetails)[] = NO_FIELDS,
  ): void {
    const from = this.state.approvalStatus;
    this.state = { ...this.state, ...changes, updatedAt: now };
    this.recorded.push({
      action,
      at: now,
      approvalStatusFrom: from,
      approvalStatusTo: this.state.approvalStatus,
      archived: this.state.archived,
      comment: action === 'REJECTED' ? this.state.rejectComment : null,
      changedFields,
    });
  }
}
