import { ApiSchema } from '@nestjs/swagger';
import {
  BooleanField,
  DateTimeField,
  EnumField,
  EnumListField,
  TextField,
} from '../../shared/http/response-fields';
import { WRITABLE_FIELDS_IN_LEAD_ORDER } from '../domain/lead-details';
import { LEAD_HISTORY_ACTIONS, LeadHistoryAction, LeadHistoryEntry } from '../domain/lead-history';
import { APPROVAL_STATUSES, ApprovalStatus } from '../domain/lead-transitions';
import { isoDateTime } from '../../shared/domain/date-time';

const NULLABLE = true;

/**
 * One entry of a lead's history (X12; what each field holds for each action: docs/lead-history.md).
 * Built field by field, so the lead id and anything else stored with the entry stay off the wire (D4).
 */
@ApiSchema({ name: 'LeadHistoryEntry' })
export class LeadHistoryEntryResponse {
  @DateTimeField({
    description: 'when the change was made: the lead’s createdAt for CREATED, its new updatedAt otherwise',
  })
  at!: string;
  @EnumField(LEAD_HISTORY_ACTIONS, { description: 'what the request did', example: 'CREATED' })
  action!: LeadHistoryAction;
  @EnumField(
    APPROVAL_STATUSES,
    { description: 'approvalStatus before the change; null for CREATED', example: null },
    NULLABLE,
  )
  approvalStatusFrom!: ApprovalStatus | null;
  @EnumField(APPROVAL_STATUSES, { description: 'approvalStatus after the change', example: 'PENDING' })
  approvalStatusTo!: ApprovalStatus;
  @BooleanField({ description: 'the lead’s archived flag after the change', example: false })
  archived!: boolean;
  @TextField(
    {
      description:
        'the reject comment on REJECTED (null when the reject had none); null for every other action',
    },
    NULLABLE,
  )
  comment!: string | null;
  @EnumListField(WRITABLE_FIELDS_IN_LEAD_ORDER, {
    description:
      'the Lead fields whose value a REPLACED or UPDATED entry changed, in the Lead object’s order; empty for every other action',
    example: [],
  })
  changedFields!: string[];
  @TextField(
    {
      description:
        'display prefix of the API key that made the change (`prm_` and 6 characters), never the key; null for the bulk import (CLI)',
      example: 'prm_Xb1vQ2',
    },
    NULLABLE,
  )
  apiKeyPrefix!: string | null;
}

export function toLeadHistoryEntryResponse(entry: LeadHistoryEntry): LeadHistoryEntryResponse {
  return {
    at: isoDateTime(entry.at), // D1
    action: entry.action,
    approvalStatusFrom: entry.approvalStatusFrom,
    approvalStatusTo: entry.approvalStatusTo,
    archived: entry.archived,
    comment: entry.comment,
    changedFields: [...entry.changedFields],
    apiKeyPrefix: entry.apiKeyPrefix,
  };
}
