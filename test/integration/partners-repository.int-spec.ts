import { TestingModule } from '@nestjs/testing';
import { MailDispatcherSettings } from '../../src/mail/application/mail-dispatcher.settings';
import {
  ConcurrentWriteConflict,
  PartnerRepository,
  PartnerUserRepository,
} from '../../src/partners/application/ports';
import { Partner } from '../../src/partners/domain/partner';
import { newPartnerUser } from '../../src/partners/domain/partner-user';
import { PartnersModule } from '../../src/partners/partners.module';
import { UnitOfWork } from '../../src/shared/application/unit-of-work';
import { CreateVendorUseCase } from '../../src/vendors/application/vendor-use-cases';
import { VendorsModule } from '../../src/vendors/vendors.module';
import { createTestContext, unique } from '../support/test-app';

/** The partners adapters on the engine under test: the unique guards behind the use cases' checks. */
describe('TypeORM partner repositories', () => {
  let context: TestingModule;
  let uow: UnitOfWork;
  let partners: PartnerRepository;
  let users: PartnerUserRepository;
  let vendorId: number;

  beforeAll(async () => {
    context = await createTestContext([VendorsModule, PartnersModule], {
      override: (b) =>
        b.overrideProvider(MailDispatcherSettings).useValue(new MailDispatcherSettings({ autoStart: false })),
    });
    uow = context.get(UnitOfWork);
    partners = context.get(PartnerRepository);
    users = context.get(PartnerUserRepository);
    vendorId = (await context.get(CreateVendorUseCase).execute(unique('Vendor'))).vendorId;
  });
  afterAll(() => context.close());

  const now = new Date('2030-03-04T05:06:07.089Z');
  const newPartner = () =>
    uow.run(() =>
      partners.insert(
        Partner.invite(
          {
            companyName: unique('Company'),
            description: null,
            website: null,
            country: null,
            companySize: null,
            contactName: 'C',
            contactEmailAddress: `${unique('c')}@p.test`,
            contactPhone: null,
            contactRole: null,
            type: null,
          },
          now,
        ),
      ),
    );
  const request = (emailAddress: string) => ({
    firstName: 'U',
    lastName: null,
    emailAddress,
    phoneNumber: null,
    jobTitle: null,
  });

  it('stores and reads a partner with millisecond datetimes (D1)', async () => {
    const partner = await newPartner();
    const stored = await uow.run(() => partners.findById(partner.id));
    expect(stored!.snapshot()).toEqual(partner.snapshot());
  });

  it('answers ConcurrentWriteConflict when the unique email index refuses a user, whatever the case (D13)', async () => {
    const partner = await newPartner();
    const email = `${unique('Taken')}@P.test`;
    await uow.run(() => users.insertAll([newPartnerUser(partner.id, request(email), now)]));
    const attempt = uow.run(() =>
      users.insertAll([newPartnerUser(partner.id, request(email.toUpperCase()), now)]),
    );
    await expect(attempt).rejects.toBeInstanceOf(ConcurrentWriteConflict);
    await expect(attempt).rejects.toMatchObject({ emailNormalized: email.toLowerCase() });
    expect((await uow.run(() => users.takenEmails([email.toLowerCase()]))).has(email.toLowerCase())).toBe(
      true,
    );
  });

  it('answers ConcurrentWriteConflict for a second connection of the same vendor and partner (primary key)', async () => {
    const partner = await newPartner();
    expect(await uow.run(() => partners.findConnected(vendorId, partner.id))).toBeNull();
    await uow.run(() => partners.connect(vendorId, partner.id, now));
    await expect(uow.run(() => partners.connect(vendorId, partner.id, now))).rejects.toBeInstanceOf(
      ConcurrentWriteConflict,
    );
    expect((await uow.run(() => partners.findConnected(vendorId, partner.id)))!.id).toBe(partner.id);
  });
});
