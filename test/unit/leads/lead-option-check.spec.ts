import { ValidationError } from '../../../src/shared/domain/domain-error';
import { leadsSetup } from './setup';

describe('LeadOptionCheck (D15)', () => {
  async function options() {
    const t = leadsSetup();
    const vendor = t.seed.vendor('A');
    const other = t.seed.vendor('B');
    return {
      t,
      vendor,
      source: t.leadOptions.add(vendor, 'source'),
      status: t.leadOptions.add(vendor, 'status'),
      foreignSource: t.leadOptions.add(other, 'source'),
    };
  }

  it("accepts the vendor's own options of the matching kind, and absent or null values", async () => {
    const { t, vendor, source, status } = await options();
    expect(await t.optionCheck.findErrors(vendor, { source, status })).toEqual([]);
    expect(await t.optionCheck.findErrors(vendor, { source: null })).toEqual([]);
    expect(await t.optionCheck.findErrors(vendor, {})).toEqual([]);
  });

  it("refuses another vendor's option, an option of the other kind and an unknown id, naming each field", async () => {
    const { t, vendor, source, status, foreignSource } = await options();
    const sourceError = {
      field: 'source',
      error: "must be the id of one of the vendor's lead source values",
    };
    const statusError = {
      field: 'status',
      error: "must be the id of one of the vendor's lead status values",
    };
    expect(await t.optionCheck.findErrors(vendor, { source: foreignSource, status: source })).toEqual([
      sourceError,
      statusError,
    ]);
    expect(await t.optionCheck.findErrors(vendor, { source: status })).toEqual([sourceError]);
    await expect(t.optionCheck.check(vendor, { status: 99_999 })).rejects.toEqual(
      new ValidationError([statusError]),
    );
  });

  it('leaves values that are no ids at all to the shape validation', async () => {
    const { t, vendor } = await options();
    expect(await t.optionCheck.findErrors(vendor, { source: 'web', status: -1 })).toEqual([]);
    expect(await t.optionCheck.findErrors(vendor, { source: 1.5, status: 0 })).toEqual([]);
  });
});
