import { Controller, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentVendor } from '../../shared/http/current-vendor.decorator';
import { Operation } from '../../shared/http/operation';
import { Input, ValidInput } from '../../shared/http/request-input';
import { RecordPartnerUserActivityUseCase } from '../application/record-partner-user-activity.use-case';
import { PartnerUserPath } from './invitation.dto';
import { PartnerUserResponse, toPartnerUserResponse } from './partner.response';

/** X21: the vendor's partner portal reports that a partner user was active. */
@ApiTags('Partners')
@Controller('partners')
export class PartnerUserActivityController {
  constructor(private readonly recordActivity: RecordPartnerUserActivityUseCase) {}

  /** No body; any body is ignored (D38, like approve). */
  @Operation({
    id: 'recordPartnerUserActivity',
    summary: 'Record activity of a partner user (X21)',
    description:
      'Sets `lastActiveAt` to now when it is null or at least 24 hours old, otherwise leaves it (refreshed at ' +
      'most once per 24 hours). 404 RESOURCE_NOT_FOUND for a partner not connected to the caller’s vendor (D25) ' +
      'or a user not of that partner. Any body is ignored (D38).',
    data: PartnerUserResponse,
    errors: ['RESOURCE_NOT_FOUND'],
  })
  @Put(':partnerId/users/:userId/activity')
  async record(
    @CurrentVendor() vendorId: number,
    @ValidInput({ params: PartnerUserPath }) input: Input<PartnerUserPath>,
  ): Promise<PartnerUserResponse> {
    const user = await this.recordActivity.execute(vendorId, input.params.partnerId, input.params.userId);
    return toPartnerUserResponse(user);
  }
}
