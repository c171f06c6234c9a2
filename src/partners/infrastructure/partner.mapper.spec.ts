import { Partner } from '../domain/partner';
import { PartnerUser } from '../domain/partner-user';
import { PartnerMapper, PartnerUserMapper } from './partner.mapper';
import { PartnerOrmEntity } from './partner.orm-entity';
import { PartnerUserOrmEntity } from './partner-user.orm-entity';

describe('PartnerMapper', () => {
  it('round-trips every field of a partner through its row', () => {
    const partner = Partner.restore({
      id: 12,
      companyName: 'Partner GmbH',
      description: 'desc',
      website: 'https://p.test',
      country: 'DE',
      companySize: '10',
      contactName: 'Carla',
      contactEmailAddress: 'Carla@P.test',
      contactPhone: '+49',
      contactRole: 'CEO',
      type: 'DISTRIBUTOR',
      invitedAt: new Date('2030-01-02T03:04:05.678Z'),
      createdAt: new Date('2030-01-01T00:00:00.001Z'),
    });
    const row = Object.assign(new PartnerOrmEntity(), { id: 12, ...PartnerMapper.toRow(partner) });
    expect(PartnerMapper.toDomain(row).snapshot()).toEqual(partner.snapshot());
  });

  it('round-trips a partner with every nullable field null', () => {
    const partner = Partner.restore({
      id: 1,
      companyName: 'C',
      description: null,
      website: null,
      country: null,
      companySize: null,
      contactName: 'N',
      contactEmailAddress: 'n@p.test',
      contactPhone: null,
      contactRole: null,
      type: null,
      invitedAt: null,
      createdAt: new Date(0),
    });
    const row = Object.assign(new PartnerOrmEntity(), { id: 1, ...PartnerMapper.toRow(partner) });
    expect(PartnerMapper.toDomain(row).snapshot()).toEqual(partner.snapshot());
  });
});

describe('PartnerUserMapper', () => {
  it('round-trips a user and stores the lower-cased address beside the one sent (D13)', () => {
    const snapshot = {
      id: 5,
      partnerId: 12,
      firstName: 'Ann',
      lastName: 'Lee',
      emailAddress: 'Ann.Lee@P.test',
      phoneNumber: '1',
      jobTitle: 'CTO',
      lastActiveAt: new Date('2030-02-02T00:00:00.000Z'),
      createdAt: new Date('2030-01-01T00:00:00.000Z'),
    };
    const row = PartnerUserMapper.toRow(PartnerUser.restore(snapshot));
    expect(row.emailNormalized).toBe('ann.lee@p.test');
    expect(row.emailAddress).toBe('Ann.Lee@P.test');
    expect(
      PartnerUserMapper.toDomain(Object.assign(new PartnerUserOrmEntity(), { id: 5, ...row })).snapshot(),
    ).toEqual(snapshot);
  });
});
