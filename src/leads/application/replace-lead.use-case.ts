import { Injectable } from '@nestjs/common';
import { Lead } from '../domain/lead';
import { LeadDetails } from '../domain/lead-details';
import { ChangeLeadUseCase } from './change-lead.use-case';

@Injectable()
export class ReplaceLeadUseCase extends ChangeLeadUseCase<Partial<LeadDetails>> {
  protected apply(lead: Lead, input: Partial<LeadDetails>, now: Date): boolean {
    return lead.replace(input, now);
  }
}
