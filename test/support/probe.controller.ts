import { Controller, Get, Post, Put } from '@nestjs/common';
import { CurrentVendor } from '../../src/shared/http/current-vendor.decorator';
import { Success } from '../../src/shared/http/envelope';
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
    @ValidInput({ params: ['itemId'], body: { type: ProbeBody } })
    input: Input<'itemId', undefined, ProbeBody>,
  ) {
    return { vendorId, itemId: input.params.itemId, body: input.body };
  }

  @Put(':itemId/optional')
  @Success()
  optional(
    @ValidInput({ params: ['itemId'], body: { type: ProbeComment, optional: true } })
    input: Input<'itemId', undefined, ProbeComment | undefined>,
  ) {
    return { comment: input.body?.comment ?? null, hadBody: input.body !== undefined };
  }

  @Put(':itemId/ignored')
  @Success()
  ignored(@ValidInput({ params: ['itemId'] }) input: Input<'itemId'>) {
    return { itemId: input.params.itemId };
  }

  @Get('list')
  @Success()
  list(
    @ValidInput({
      query: (q) => ({
        page: q.integer('page', { default: 0, min: 0 }),
        perPage: q.integer('perPage', { default: 20, min: 1, max: 100 }),
        status: q.integerList('status'),
        day: q.date('day'),
        archived: q.boolean('archived', false),
        direction: q.enumOf('sortDirection', ['asc', 'desc'] as const, { caseInsensitive: true }) ?? 'desc',
        sortBy: q.enumOrDefault('sortBy', ['id', 'createdAt'] as const, 'createdAt'),
      }),
    })
    input: Input<never, Record<string, unknown>>,
  ) {
    return input.query;
  }

  @Get('slow')
  @Success()
  async slow(
    @ValidInput({ query: (q) => q.integer('ms', { default: 300, min: 0, max: 5000 }) })
    input: Input<never, number>,
  ) {
    await new Promise((resolve) => setTimeout(resolve, input.query));
    return { sleptMs: input.query };
  }

  @Get('boom')
  @Success()
  boom(): never {
    throw new Error('SELECT secret_column FROM secret_table failed');
  }
}
