import { Controller, Put } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import { CurrentVendor } from '../../shared/http/current-vendor.decorator';
import { Success } from '../../shared/http/envelope';
import { Input, ValidInput } from '../../shared/http/request-input';
import { RecordPartnerUserActivityUseCase } from '../application/record-partner-user-activity.use-case';
import { PartnerUserResponse, toPartnerUserResponse } from './partner.responses';

/** X21: the vendor's partner portal reports that a partner user was active. */
@Controller('partners')
export class PartnerUserActivityController {
  constructor(private readonly recordActivity: RecordPartnerUserActivityUseCase) {}

  /** No body; any body is ignored (D38, like approve). */
  @Put(':partnerId/users/:userId/activity')
  @Success() // D3: message null
  @ApiOperation({
    operationId: 'recordPartnerUserActivity',
    tags: ['partners'],
    summary: 'Record activity of a partner user (X21)',
    description:
      'Sets lastActiveAt to now when it is null or at least 24 hours old, otherwise leaves it. ' +
      "404 RESOURCE_NOT_FOUND for a partner not connected to the caller's vendor or a user not of that partner.",
  })
  async record(
    @CurrentVendor() vendorId: number,
    @ValidInput({ params: ['partnerId', 'userId'] }) input: Input<'partnerId' | 'userId'>,
  ): Promise<PartnerUserResponse> {
    const user = await this.recordActivity.execute(vendorId, input.params.partnerId, input.params.userId);
    return toPartnerUserResponse(user);
  }
}
