import { TestingModule } from '@nestjs/testing';
import { DataSource } from 'typeorm';
import { LeadRepository } from '../../src/leads/application/lead-repository';
import { Lead } from '../../src/leads/domain/lead';
import { LeadsModule } from '../../src/leads';
import { MailDispatcherSettings } from '../../src/mail/application/mail-dispatcher.settings';
import { PartnerAccess, PartnersModule } from '../../src/partners';
import { ConcurrentWriteConflict } from '../../src/partners/application/concurrent-write-conflict';
import { PartnerRepository } from '../../src/partners/application/partner-repository';
import { PartnerUserRepository } from '../../src/partners/application/partner-user-repository';
import { PartnerUser } from '../../src/partners/domain/partner-user';
import { DomainEvents } from '../../src/shared/application/domain-events';
import { UnitOfWork } from '../../src/shared/application/unit-of-work';
import { DuplicateEntryError } from '../../src/shared/domain/domain-error';
import { VendorsModule } from '../../src/vendors';
import { CreateVendorUseCase } from '../../src/vendors/application/create-vendor.use-case';
import { WebhookEndpoints } from '../../src/webhooks/application/webhook-endpoints';
import { inMemoryAdapters } from '../support/in-memory';
import { LeadMother } from '../support/lead-mother';
import { PartnerAggregateMother } from '../support/partner-aggregate-mother';
import { createTestContext, unique } from '../support/test-app';

/**
 * The uniqueness contract of the ports the use-case unit specs lean on, run against the in-memory
 * adapter (test/support/in-memory) and the TypeORM adapter on the engine under test: if the double
 * drifts from the database, this fails, not a production request.
 */
interface Ports {
  uow: UnitOfWork;
  partners: PartnerRepository;
  access: PartnerAccess;
  users: PartnerUserRepository;
  leads: LeadRepository;
  events: DomainEvents;
  endpoints: WebhookEndpoints;
  /** the bodies of the webhook events stored for the vendor, oldest first, as they will be sent */
  storedEvents(vendorId: number): Promise<string[]>;
  vendorIds: [number, number];
  close(): Promise<void>;
}

async function typeOrmPorts(): Promise<Ports> {
  const context: TestingModule = await createTestContext([VendorsModule, PartnersModule, LeadsModule], {
    override: (b) =>
      b.overrideProvider(MailDispatcherSettings).useValue(new MailDispatcherSettings({ autoStart: false })),
  });
  const createVendor = context.get(CreateVendorUseCase);
  const dataSource = context.get(DataSource);
  return {
    uow: context.get(UnitOfWork),
    partners: context.get(PartnerRepository),
    access: context.get(PartnerAccess),
    users: context.get(PartnerUserRepository),
    leads: context.get(LeadRepository),
    events: context.get(DomainEvents),
    endpoints: context.get(WebhookEndpoints),
    storedEvents: async (vendorId) =>
      (
        (await dataSource.query('SELECT payload FROM webhook_events WHERE vendor_id = ? ORDER BY id', [
          vendorId,
        ])) as { payload: string }[]
      ).map((row) => row.payload),
    vendorIds: [
      (await createVendor.execute(unique('Vendor'))).vendorId,
      (await createVendor.execute(unique('Vendor'))).vendorId,
    ],
    close: () => context.close(),
  };
}

async function inMemoryPorts(): Promise<Ports> {
  const a = inMemoryAdapters();
  return {
    uow: a.uow,
    partners: a.partners,
    access: a.partnerAccess,
    users: a.users,
    leads: a.leads,
    events: a.domainEvents,
    endpoints: a.webhookEndpoints,
    storedEvents: async (vendorId) =>
      a.webhookTables.events.all((e) => e.vendorId === vendorId).map((e) => e.payload),
    vendorIds: [a.vendors.add('A'), a.vendors.add('B')],
    close: async () => undefined,
  };
}

describe.each([
  ['in-memory adapters', inMemoryPorts],
  ['TypeORM adapters', typeOrmPorts],
])('port contracts: %s', (_name, makePorts) => {
  let p: Ports;
  beforeAll(async () => {
    p = await makePorts();
  });
  afterAll(() => p.close());

  const now = new Date('2030-03-04T05:06:07.089Z');
  const email = () => `${unique('u')}@contract.test`;
  const partner = (vendorIds: number[] = [p.vendorIds[0]]) =>
    p.uow.run(async () => {
      const stored = await p.partners.insert(PartnerAggregateMother.invited(now));
      for (const vendorId of vendorIds) await p.partners.connect(vendorId, stored, now);
      return stored;
    });
  const user = (partnerId: number, emailAddress: string) =>
    PartnerUser.register(partnerId, PartnerAggregateMother.userRequest({ emailAddress }), now);

  describe('PartnerUserRepository (D13)', () => {
    it('refuses an address taken in another case with ConcurrentWriteConflict naming it, and keeps nothing of the run', async () => {
      const a = await partner();
      const b = await partner();
      const address = email();
      await p.uow.run(() => p.users.insertAll([user(a.id, address)]));
      const fresh = email();
      const error = await p.uow
        .run(() => p.users.insertAll([user(b.id, fresh), user(b.id, address.toUpperCase())]))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ConcurrentWriteConflict);
      expect((error as ConcurrentWriteConflict).emailNormalized).toBe(address.toLowerCase());
      expect(await p.users.findByEmail(fresh)).toBeNull();
    });

    it('finds addresses case-insensitively by their normalized form, and a user only within its partner', async () => {
      const a = await partner();
      const b = await partner();
      const address = `${unique('Mixed')}@Contract.test`;
      const registered = user(a.id, address);
      const [created] = await p.uow.run(() => p.users.insertAll([registered]));
      // the repository identifies the user it inserts (docs/architecture.md "Aggregates: one style")
      expect(created).toBe(registered);
      expect(created!.id).toEqual(expect.any(Number));
      const normalized = address.toLowerCase();
      expect(await p.users.takenEmails([normalized, email()])).toEqual(new Set([normalized]));
      expect((await p.users.findByEmail(normalized))?.id).toBe(created!.id);
      expect((await p.users.findInPartnerByEmail(a.id, normalized))?.emailAddress).toBe(address);
      expect(await p.users.findInPartnerByEmail(b.id, normalized)).toBeNull();
      // a lock is held until the transaction ends: it is taken inside a unit (TypeORM refuses it outside one)
      expect(await p.uow.run(() => p.users.lockInPartner(b.id, created!.id))).toBeNull();
    });
  });

  describe('PartnerRepository (D20, D25)', () => {
    it('a second connection of one vendor to one partner is ConcurrentWriteConflict; each vendor sees its own', async () => {
      const stored = await partner();
      await expect(p.uow.run(() => p.partners.connect(p.vendorIds[0], stored, now))).rejects.toBeInstanceOf(
        ConcurrentWriteConflict,
      );
      expect(await p.access.isConnected(p.vendorIds[1], stored.id)).toBe(false);
      expect(await p.partners.findConnected(p.vendorIds[1], stored.id)).toBeNull();
      await p.uow.run(() => p.partners.connect(p.vendorIds[1], stored, now));
      expect(await p.access.isConnected(p.vendorIds[1], stored.id)).toBe(true);
      expect((await p.partners.findConnected(p.vendorIds[1], stored.id))?.id).toBe(stored.id);
    });
  });

  describe('LeadRepository (D27)', () => {
    const lead = (vendorId: number, partnerId: number, emailAddress: string) =>
      Lead.submit(
        { vendorId, partnerId, details: LeadMother.details({ emailAddress, source: null, status: null }) },
        now,
      );

    it('refuses a second lead of one (vendor, partner) with the email in another case, archived leads included', async () => {
      const shared = await partner([...p.vendorIds]);
      const address = email();
      const first = lead(p.vendorIds[0], shared.id, address);
      await p.uow.run(() => p.leads.insert(first));
      await p.uow.run(async () => {
        const loaded = (await p.leads.lockForVendor(first.id!, p.vendorIds[0]))!;
        loaded.archive(now);
        await p.leads.update(loaded);
      });
      const taken = new DuplicateEntryError(
        'emailAddress',
        'a lead with this email address already exists for this partner',
      );
      await expect(
        p.uow.run(() => p.leads.insert(lead(p.vendorIds[0], shared.id, address.toUpperCase()))),
      ).rejects.toEqual(taken);
      expect(await p.leads.emailTaken(p.vendorIds[0], shared.id, address)).toBe(true);
      expect(await p.leads.emailTaken(p.vendorIds[0], shared.id, address, first.id)).toBe(false);
      // another vendor of the same partner, and another partner: their own
      await p.uow.run(() => p.leads.insert(lead(p.vendorIds[1], shared.id, address)));
      const other = await partner();
      await p.uow.run(() => p.leads.insert(lead(p.vendorIds[0], other.id, address)));
    });

    it('refuses an update to a taken email with the same error, and the lead keeps its email', async () => {
      const stored = await partner();
      const [a, b] = [email(), email()];
      const first = lead(p.vendorIds[0], stored.id, a);
      await p.uow.run(async () => {
        await p.leads.insert(first);
        await p.leads.insert(lead(p.vendorIds[0], stored.id, b));
      });
      await expect(
        p.uow.run(async () => {
          const loaded = (await p.leads.lockForVendor(first.id!, p.vendorIds[0]))!;
          loaded.update({ emailAddress: b.toUpperCase() }, now);
          await p.leads.update(loaded);
        }),
      ).rejects.toBeInstanceOf(DuplicateEntryError);
      expect((await p.leads.findForVendor(first.id!, p.vendorIds[0]))!.details.emailAddress).toBe(a);
      expect(await p.leads.findForVendor(first.id!, p.vendorIds[1])).toBeNull();
    });

    it('updates only a lead it inserted or locked: one it only read is refused, and nothing is written', async () => {
      const stored = await partner();
      const first = lead(p.vendorIds[0], stored.id, email());
      await p.uow.run(() => p.leads.insert(first));
      const vendorId = p.vendorIds[0];
      const [listed] = (
        await p.uow.read(() =>
          p.leads.listForPartner({
            vendorId,
            partnerId: stored.id,
            page: 0,
            perPage: 20,
            sortBy: 'id',
            sortDirection: 'asc',
            statuses: [],
            sources: [],
            archived: false,
          }),
        )
      ).leads;
      const readOnly = [
        (await p.uow.read(() => p.leads.findForVendor(first.id!, vendorId)))!,
        (await p.uow.read(() => p.leads.findViewForVendor(first.id!, vendorId)))!.lead,
        listed!.lead,
      ];
      for (const read of readOnly) {
        expect(read.id).toBe(first.id);
        read.archive(now);
        await expect(p.uow.run(() => p.leads.update(read))).rejects.toThrow(
          `lead ${first.id} was not inserted or locked by this repository`,
        );
      }
      expect((await p.leads.findForVendor(first.id!, vendorId))!.archived).toBe(false);
      // a change to the lead it inserted is written, and so is one made through a locked lead
      first.update({ city: 'Nice' }, now);
      await p.uow.run(() => p.leads.update(first));
      expect((await p.leads.findForVendor(first.id!, vendorId))!.details.city).toBe('Nice');
      await p.uow.run(async () => {
        const locked = (await p.leads.lockForVendor(first.id!, vendorId))!;
        locked.archive(now);
        await p.leads.update(locked);
      });
      expect((await p.leads.findForVendor(first.id!, vendorId))!.archived).toBe(true);
    });
  });

  describe('DomainEvents, as webhooks (X17, X18)', () => {
    const data = { id: 7, emailAddress: 'Ünïcode <x>@contract.test', users: [], invitedAt: null };
    const subscribed = async (vendorId: number, events: string[]) =>
      p.uow.run(() =>
        p.endpoints.add({
          vendorId,
          url: 'https://hooks.example.com/in',
          events,
          description: null,
          secret: 'whsec_AAAA',
          createdAt: now,
          disabledAt: null,
        }),
      );

    it('stores {id, type, createdAt, data} with the data exactly as published, for a subscribed type only', async () => {
      const [vendorId] = p.vendorIds;
      await subscribed(vendorId, ['partner.reinvited']);
      const before = (await p.storedEvents(vendorId)).length;
      await p.uow.run(() => p.events.publish({ type: 'partner.reinvited', vendorId, data }));
      await p.uow.run(() => p.events.publish({ type: 'lead.created', vendorId, data }));
      const stored = (await p.storedEvents(vendorId)).slice(before);
      expect(stored).toHaveLength(1);
      expect(stored[0]).toMatch(
        /^\{"id":"evt_[0-9a-f]{32}","type":"partner\.reinvited","createdAt":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z",/,
      );
      expect(stored[0]!.endsWith(`,"data":${JSON.stringify(data)}}`)).toBe(true);
    });

    it('refuses outside a transaction, and a change that fails takes its event with it', async () => {
      const vendorId = p.vendorIds[1];
      await subscribed(vendorId, ['*']);
      const before = (await p.storedEvents(vendorId)).length;
      const event = { type: 'lead.archived', vendorId, data };
      await expect(p.events.publish(event)).rejects.toThrow('inside UnitOfWork.run');
      await expect(
        p.uow.run(async () => {
          await p.events.publish(event);
          throw new Error('the change fails after its event');
        }),
      ).rejects.toThrow('the change fails');
      await expect(p.uow.run(() => p.events.publish({ ...event, type: 'lead.archivd' }))).rejects.toThrow(
        'is not a webhook event type',
      );
      expect(await p.storedEvents(vendorId)).toHaveLength(before);
    });
  });
});
