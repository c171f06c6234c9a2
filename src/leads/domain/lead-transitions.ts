/**
 * The lead's state machine, in one place (docs/api.md "States and transitions", D30-D32). Every
 * operation that touches approvalStatus or archived consults this table; nothing else decides.
 */
export const APPROVAL_STATUSES = ['PENDING', 'APPROVED', 'REJECTED'] as const;
export type ApprovalStatus = (typeof APPROVAL_STATUSES)[number];

export type LeadOperation = 'approve' | 'reject' | 'archive';

/**
 * - `move`: the operation is applied and the lead goes to `to`
 * - `retry`: the lead is already where the operation leads; it succeeds and changes nothing
 *   (approve of APPROVED returns the same contact, reject of REJECTED keeps the first comment: D32)
 * - `conflict`: refused with 409 INVALID_STATE_TRANSITION (D30)
 * - `keep`: approvalStatus is not this operation's business (archive: archived is independent, D31)
 */
export type TransitionRule =
  { kind: 'move'; to: ApprovalStatus } | { kind: 'retry' } | { kind: 'conflict' } | { kind: 'keep' };

const move = (to: ApprovalStatus): TransitionRule => ({ kind: 'move', to });
const retry: TransitionRule = { kind: 'retry' };
const conflict: TransitionRule = { kind: 'conflict' };
const keep: TransitionRule = { kind: 'keep' };

export const LEAD_TRANSITIONS: Readonly<
  Record<ApprovalStatus, Readonly<Record<LeadOperation, TransitionRule>>>
> = {
  PENDING: { approve: move('APPROVED'), reject: move('REJECTED'), archive: keep },
  APPROVED: { approve: retry, reject: conflict, archive: keep },
  REJECTED: { approve: conflict, reject: retry, archive: keep },
};

export function transitionOf(from: ApprovalStatus, operation: LeadOperation): TransitionRule {
  return LEAD_TRANSITIONS[from][operation];
}
