import { Injectable } from '@nestjs/common';
import { Lead } from '../domain/lead';
import { LeadDetailsPatch } from '../domain/lead-details';
import { ChangeLeadUseCase } from './change-lead.use-case';

@Injectable()
export class UpdateLeadUseCase extends ChangeLeadUseCase<LeadDetailsPatch> {
  protected apply(lead: Lead, input: LeadDetailsPatch, now: Date): boolean {
    return lead.update(input, now);
  }
}
