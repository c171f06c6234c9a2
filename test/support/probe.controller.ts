import { Controller, Get, Post, Put } from '@nestjs/common';
import { CurrentVendor } from '../../src/shared/http/current-vendor.decorator';
import { Success } from '../../src/shared/http/envelope';
import {
  PathId,
  QueryBoolean,
  QueryDate,
  QueryEnum,
  QueryIdList,
  QueryInteger,
} from '../../src/shared/http/query-fields';
import { Input, ValidInput } from '../../src/shared/http/request-input';
import {
  ListOf,
  LONG_TEXT,
  OptionalInteger,
  OptionalString,
  RequiredEmail,
  RequiredString,
} from '../../src/shared/http/validation';

class ProbeItem {
  @RequiredString() firstName!: string;
  @RequiredEmail() emailAddress!: string;
}

class ProbeBody {
  @RequiredString() name!: string;
  @RequiredEmail() email!: string;
  @OptionalInteger(0, 2147483647) count?: number | null;
  @OptionalString(LONG_TEXT) notes?: string | null;
  @ListOf(ProbeItem, { min: 1, max: 100, sizeMessage: 'must hold 1 to 100 entries', required: true })
  items!: ProbeItem[];
}

class ProbeComment {
  @OptionalString(LONG_TEXT) comment?: string | null;
}

class ProbePath {
  @PathId('the item') itemId!: number;
}

class ProbeListQuery {
  @QueryInteger({ default: 0, min: 0, description: 'page' }) page!: number;
  @QueryInteger({ default: 20, min: 1, max: 100, description: 'per page' }) perPage!: number;
  @QueryIdList('ids') status!: number[];
  @QueryDate('a day') day?: Date;
  @QueryBoolean({ default: false, description: 'a flag' }) archived!: boolean;
  @QueryEnum(['asc', 'desc'] as const, { default: 'desc', caseInsensitive: true, description: 'direction' })
  sortDirection!: 'asc' | 'desc';
  @QueryEnum(['id', 'createdAt'] as const, { default: 'createdAt', fallback: true, description: 'key' })
  sortBy!: 'id' | 'createdAt';
}

class ProbeSlowQuery {
  @QueryInteger({ default: 300, min: 0, max: 5000, description: 'how long to sleep' }) ms!: number;
}

/**
 * Mounted only inside e2e test apps, to exercise the shared HTTP edge (body parsing, validation,
 * envelope, errors) independently of the business endpoints.
 */
@Controller('probe')
export class ProbeController {
  @Post(':itemId')
  @Success('LEAD_CREATE_SUCCESSFUL')
  create(
    @CurrentVendor() vendorId: number,
    @ValidInput({ params: ProbePath, body: { type: ProbeBody } })
    input: Input<ProbePath, undefined, ProbeBody>,
  ) {
    return { vendorId, itemId: input.params.itemId, body: input.body };
  }

  @Put(':itemId/optional')
  @Success()
  optional(
    @ValidInput({ params: ProbePath, body: { type: ProbeComment, optional: true } })
    input: Input<ProbePath, undefined, ProbeComment | undefined>,
  ) {
    return { comment: input.body?.comment ?? null, hadBody: input.body !== undefined };
  }

  @Put(':itemId/ignored')
  @Success()
  ignored(@ValidInput({ params: ProbePath }) input: Input<ProbePath>) {
    return { itemId: input.params.itemId };
  }

  @Get('list')
  @Success()
  list(@ValidInput({ query: ProbeListQuery }) input: Input<undefined, ProbeListQuery>) {
    const { sortDirection, ...rest } = input.query;
    return { ...rest, direction: sortDirection };
  }

  @Get('slow')
  @Success()
  async slow(@ValidInput({ query: ProbeSlowQuery }) input: Input<undefined, ProbeSlowQuery>) {
    await new Promise((resolve) => setTimeout(resolve, input.query.ms));
    return { sleptMs: input.query.ms };
  }

  @Get('boom')
  @Success()
  boom(): never {
    throw new Error('SELECT secret_column FROM secret_table failed');
  }
}
