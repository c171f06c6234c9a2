import { PartnerListQuery } from '../../../src/partners/domain/partner';
import { PartnerUserListQuery } from '../../../src/partners/domain/partner-user';
import { NotFoundError } from '../../../src/shared/domain/domain-error';
import { PartnerAggregateMother, partnersSetup } from './setup';

const M = PartnerAggregateMother;

describe('GetPartnerUseCase (X10)', () => {
  it('returns a partner connected to the vendor, as stored', async () => {
    const t = partnersSetup();
    const vendor = t.seed.vendor();
    const { partner } = await t.seed.partner([vendor]);
    expect((await t.getPartner.execute(vendor, partner.id)).snapshot()).toEqual(
      t.partners.stored(partner.id),
    );
  });

  it("is not found for another vendor's partner exactly as for a missing one (D25)", async () => {
    const t = partnersSetup();
    const [vendor, other] = [t.seed.vendor('A'), t.seed.vendor('B')];
    const { partner } = await t.seed.partner([other]);
    await expect(t.getPartner.execute(vendor, partner.id)).rejects.toEqual(new NotFoundError('partner'));
    await expect(t.getPartner.execute(vendor, partner.id + 1)).rejects.toEqual(new NotFoundError('partner'));
  });
});

describe('ListPartnersUseCase (X9)', () => {
  const query = (vendorId: number, overrides: Partial<PartnerListQuery> = {}): PartnerListQuery => ({
    vendorId,
    page: 0,
    perPage: 20,
    sortBy: 'createdAt',
    sortDirection: 'desc',
    ...overrides,
  });

  it("lists only the vendor's partners; a partner shared by two vendors is listed by both (D20)", async () => {
    const t = partnersSetup();
    const [a, b] = [t.seed.vendor('A'), t.seed.vendor('B')];
    const { partner: shared } = await t.seed.partner([a, b]);
    const { partner: onlyA } = await t.seed.partner([a]);
    const { partner: onlyB } = await t.seed.partner([b]);
    const idsOf = async (vendorId: number) =>
      (await t.listPartners.execute(query(vendorId, { sortBy: 'id', sortDirection: 'asc' }))).data.map(
        (p) => p.id,
      );
    expect(await idsOf(a)).toEqual([shared.id, onlyA.id]);
    expect(await idsOf(b)).toEqual([shared.id, onlyB.id]);
  });

  it('pages with the total of all matches; ties on the sort key are broken by id in the same direction', async () => {
    const t = partnersSetup();
    const vendor = t.seed.vendor();
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push((await t.seed.partner([vendor], [])).partner.id); // same createdAt
    const first = await t.listPartners.execute(query(vendor, { perPage: 2 }));
    const second = await t.listPartners.execute(query(vendor, { perPage: 2, page: 1 }));
    expect(first).toMatchObject({ page: 0, perPage: 2, totalItems: 3 });
    expect([...first.data, ...second.data].map((p) => p.id)).toEqual([...ids].reverse());
  });

  it('filters by a literal, case-insensitive prefix of companyName or contactEmailAddress, and by type', async () => {
    const t = partnersSetup();
    const vendor = t.seed.vendor();
    const insert = (profile: ReturnType<typeof M.profile>) =>
      t.uow.run(async () => {
        const partner = await t.partners.insert(M.invited(t.clock.now(), profile));
        await t.partners.connect(vendor, partner, t.clock.now());
        return partner.id;
      });
    const acme = await insert(M.profile({ companyName: 'ACME_Tools', type: 'RESELLER' }));
    const byMail = await insert(
      M.profile({ companyName: 'Other', contactEmailAddress: 'acme@x.test', type: 'DISTRIBUTOR' }),
    );
    await insert(M.profile({ companyName: 'acmeXtools' }));
    const ids = async (overrides: Partial<PartnerListQuery>) =>
      (
        await t.listPartners.execute(query(vendor, { sortBy: 'id', sortDirection: 'asc', ...overrides }))
      ).data.map((p) => p.id);
    expect(await ids({ keyword: 'acme_' })).toEqual([acme]);
    expect(await ids({ keyword: 'ACME@' })).toEqual([byMail]);
    expect(await ids({ type: 'DISTRIBUTOR' })).toEqual([byMail]);
  });
});

describe('ListPartnerUsersUseCase (D24, D40)', () => {
  const query = (partnerId: number, overrides: Partial<PartnerUserListQuery> = {}): PartnerUserListQuery => ({
    partnerId,
    page: 0,
    perPage: 20,
    sortBy: 'id',
    ...overrides,
  });

  it('lists every user of the partner to every connected vendor, whichever vendor invited it (D40)', async () => {
    const t = partnersSetup();
    const [a, b] = [t.seed.vendor('A'), t.seed.vendor('B')];
    const { partner, users } = await t.seed.partner([a, b], [{}, {}]);
    for (const vendor of [a, b]) {
      expect(await t.listUsers.execute(vendor, query(partner.id))).toEqual({
        data: users,
        page: 0,
        perPage: 20,
        totalItems: 2,
      });
    }
  });

  it('sorts ascending, names case-insensitively with nulls first, ties by id (D24)', async () => {
    const t = partnersSetup();
    const vendor = t.seed.vendor();
    const { partner, users } = await t.seed.partner(
      [vendor],
      [{ lastName: 'b' }, { lastName: null }, { lastName: 'A' }, { lastName: 'b' }],
    );
    const page = await t.listUsers.execute(vendor, query(partner.id, { sortBy: 'lastName' }));
    expect(page.data.map((u) => u.id)).toEqual([users[1]!.id, users[2]!.id, users[0]!.id, users[3]!.id]);
  });

  it("is not found for another vendor's partner (D25)", async () => {
    const t = partnersSetup();
    const [vendor, other] = [t.seed.vendor('A'), t.seed.vendor('B')];
    const { partner } = await t.seed.partner([other]);
    await expect(t.listUsers.execute(vendor, query(partner.id))).rejects.toEqual(
      new NotFoundError('partner'),
    );
  });
});
