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
    expect(await t.optionCheck.findErrors(vendor, { status: 99_999 })).toEqual([statusError]);
  });

  it('leaves values that are no ids at all to the shape validation', async () => {
    const { t, vendor } = await options();
    expect(await t.optionCheck.findErrors(vendor, { source: 'web', status: -1 })).toEqual([]);
    expect(await t.optionCheck.findErrors(vendor, { source: 1.5, status: 0 })).toEqual([]);
  });
});

/**
 * D15 runs once per request, at the edge (LeadOptionInputCheck, in the validation pass of the body,
 * docs/architecture.md "Use cases and the domain"): the create, replace and update use cases no
 * longer check the options themselves. So the rules the write use cases' specs held are asserted
 * here, where they now live; the HTTP order (D18, D37) is asserted by test/e2e/leads-crud.e2e-spec.ts.
 */
describe('LeadOptionInputCheck (D15 at the edge, D18, D37)', () => {
  const sourceError = { field: 'source', error: "must be the id of one of the vendor's lead source values" };
  const statusError = { field: 'status', error: "must be the id of one of the vendor's lead status values" };

  it("answers another vendor's option as a field error of the body, whatever the partner of the path (create, docs/api.md 5)", async () => {
    const t = leadsSetup();
    const { actor } = await t.seed.owner('A');
    const { vendorId: other } = await t.seed.owner('B');
    const foreign = t.leadOptions.add(other, 'source');
    // the check knows the caller's vendor and the body only: no partner id, so no existence is asked first (D37)
    expect(await t.optionInputCheck.check(actor.vendorId, { source: foreign, status: null })).toEqual([
      sourceError,
    ]);
  });

  it('answers an unknown option id without looking a lead up (update, docs/api.md 9)', async () => {
    const t = leadsSetup();
    const { actor } = await t.seed.owner();
    const lookups: number[] = [];
    const original = t.leads.lockForVendor.bind(t.leads);
    t.leads.lockForVendor = (leadId, vendorId) => (lookups.push(leadId), original(leadId, vendorId));
    expect(await t.optionInputCheck.check(actor.vendorId, { status: 77 })).toEqual([statusError]);
    expect(lookups).toEqual([]);
  });
});
