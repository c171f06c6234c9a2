import { Controller, Get } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentVendor } from '../../shared/http/current-vendor.decorator';
import { Operation } from '../../shared/http/operation';
import { GetLeadOptionsUseCase } from '../application/get-lead-options.use-case';
import { LeadOptionsResponse, toLeadOptionsResponse } from './lead-options.response';

/** X11: the caller's vendor's lead sources and statuses, the values of Lead.source and Lead.status (D15). */
@ApiTags('Vendor')
@Controller('lead-options')
export class LeadOptionsController {
  constructor(private readonly getLeadOptions: GetLeadOptionsUseCase) {}

  @Operation({
    id: 'getLeadOptions',
    summary: 'List the vendor’s lead sources and statuses',
    description:
      'The values the caller’s vendor configured for `Lead.source` and `Lead.status` (with the admin CLI), each ' +
      'list ordered by id (X11). A lead’s `source` and `status` must be ids from these lists (D15). Either list ' +
      'may be empty.',
    data: LeadOptionsResponse,
  })
  @Get()
  async list(@CurrentVendor() vendorId: number): Promise<LeadOptionsResponse> {
    return toLeadOptionsResponse(await this.getLeadOptions.execute(vendorId));
  }
}
