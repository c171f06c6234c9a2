import type { OpenAPIObject } from '@nestjs/swagger';
import { DataSource } from 'typeorm';
import { IdempotentRequests } from '../../src/idempotency/application/idempotent-requests';
import { IdempotencySweeper } from '../../src/idempotency/application/idempotency-sweeper';
import { IdempotencySettings } from '../../src/idempotency/application/idempotency.settings';
import { CreateLeadUseCase } from '../../src/leads/application/create-lead.use-case';
import { CreateApiKeyUseCase } from '../../src/vendors/application/create-api-key.use-case';
import { MailDispatcherSettings } from '../../src/mail/application/mail-dispatcher.settings';
import { StoreUnavailableError } from '../../src/shared/application/unit-of-work';
import { Clock } from '../../src/shared/domain/clock';
import { openApiDocument } from '../../src/shared/management/openapi';
import { LeadJson, VendorApi, leadBody, vendorApi } from '../support/lead-fixtures';
import { outboxRows } from '../support/mail-outbox';
import {
  PartnerMother,
  SettableClock,
  countPartners,
  countRows,
  countUsers,
} from '../support/partner-mother';
import { inviteToken } from '../support/invitation-tokens';
import { rawExchange } from '../support/raw-http';
import { ISO_DATETIME, TestApp, createTestApp, createVendor, unique } from '../support/test-app';

const DAY_MS = 86_400_000;
/**
 * A fixed past instant for the tests that move time: the sweep test deletes every record expired by
 * T0 + 24 h, so this is earlier than any other test's records (real time, and the T0 of
 * idempotency-store.int-spec.ts), which a shared MySQL database may hold at the same moment.
 */
const T0 = '2026-01-05T08:00:00.000Z';
const plus = (ms: number) => new Date(Date.parse(T0) + ms).toISOString();

type Method = 'post' | 'put' | 'patch';

/**
 * X1-X5 through HTTP on the database under test: every write endpoint replays its stored answer
 * and runs nothing twice; another request with the key is 422; a key in use is 409; invalid keys are
 * VALIDATION_FAILED; refusals before the business rules and 5xx leave the key free; keys are per
 * vendor and last 24 hours; the sweep deletes what expired. Two processes and a crash on MariaDB:
 * idempotency-process.mysql.e2e-spec.ts.
 */
describe('Idempotency-Key (X1-X5)', () => {
  let t: TestApp;
  const clock = new SettableClock();

  beforeAll(async () => {
    t = await createTestApp({
      override: (b) =>
        b
          .overrideProvider(MailDispatcherSettings)
          .useValue(new MailDispatcherSettings({ autoStart: false }))
          .overrideProvider(IdempotencySettings)
          .useValue(new IdempotencySettings({ autoStart: false, sweepBatchSize: 2 }))
          .overrideProvider(Clock)
          .useValue(clock),
    });
  });
  afterEach(() => clock.release());
  afterAll(() => t.close());

  interface Vendor {
    vendorId: number;
    apiKey: string;
    api: VendorApi;
    partnerId: number;
    contactEmail: string;
  }

  async function vendor(): Promise<Vendor> {
    const { vendorId, apiKey } = await createVendor(t.app);
    const api = vendorApi(t.http, apiKey);
    const invite = PartnerMother.invite();
    const response = await api.post('/partners').send(invite);
    expect(response.status).toBe(200);
    return {
      vendorId,
      apiKey,
      api,
      partnerId: response.body.data.id,
      contactEmail: String(invite.contactEmailAddress),
    };
  }

  function send(v: Vendor, method: Method, path: string, key: string | undefined, body?: object) {
    let request = v.api[method](path);
    if (key !== undefined) request = request.set('Idempotency-Key', key);
    return body === undefined ? request : request.send(body);
  }

  async function createLead(v: Vendor, overrides: Record<string, unknown> = {}): Promise<LeadJson> {
    const response = await v.api.post(`/partners/${v.partnerId}/leads`).send(leadBody(overrides));
    expect(response.status).toBe(200);
    return response.body.data as LeadJson;
  }

  const getLead = async (v: Vendor, id: number) => (await v.api.get(`/leads/${id}`)).body.data as LeadJson;

  /** The first answer ran; the second is the same bytes, marked replayed (X3). */
  interface Answer {
    status: number;
    text: string;
    headers: Record<string, string>;
    body: { data: Record<string, unknown> };
  }

  async function expectReplay(first: Answer, again: () => PromiseLike<Answer>): Promise<Answer> {
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const second = await again();
    expect(second.status).toBe(first.status);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.text).toBe(first.text);
    return second;
  }

  function expectStandardError(response: { status: number; body: unknown }, status: number, message: string) {
    expect(response.status).toBe(status);
    expect(response.body).toEqual({
      message,
      status,
      success: false,
      errors: [],
      timestamp: expect.stringMatching(ISO_DATETIME),
    });
  }

  const keyRows = (vendorId: number) => countRows(t.app, 'idempotency_keys', 'vendor_id = ?', [vendorId]);

  describe('a retry with the same key, method, path and body gets the stored answer; nothing runs again (X3)', () => {
    it('invite partner: one partner, one user, one invite email', async () => {
      const v = await vendor();
      const body = PartnerMother.invite();
      const invite = () => send(v, 'post', '/partners', 'invite-1', body);
      const first = await invite();
      expect(first.status).toBe(200);
      await expectReplay(first, invite);
      expect(await countPartners(t.app, String(body.companyName))).toBe(1);
      expect(await countUsers(t.app, String(body.contactEmailAddress))).toBe(1);
      expect(await outboxRows(t.app, [String(body.contactEmailAddress)])).toHaveLength(1);
    });

    it('add users: each user once, one email each', async () => {
      const v = await vendor();
      const users = [PartnerMother.user(), PartnerMother.user()];
      const add = () => send(v, 'post', `/partners/${v.partnerId}/users`, 'add-1', { users });
      const first = await add();
      expect(first.status).toBe(200);
      await expectReplay(first, add);
      for (const user of users) expect(await countUsers(t.app, user.emailAddress)).toBe(1);
      expect(
        await outboxRows(
          t.app,
          users.map((u) => u.emailAddress),
        ),
      ).toHaveLength(2);
    });

    it('reinvite: one more email, not two', async () => {
      const v = await vendor();
      const reinvite = () =>
        send(v, 'post', `/partners/${v.partnerId}/reinvite`, 'again-1', { emailAddress: v.contactEmail });
      const first = await reinvite();
      expect(first.status).toBe(200);
      await expectReplay(first, reinvite);
      expect(await outboxRows(t.app, [v.contactEmail])).toHaveLength(2); // the invite and one reinvite
    });

    it('create lead: one lead', async () => {
      const v = await vendor();
      const body = leadBody();
      const create = () => send(v, 'post', `/partners/${v.partnerId}/leads`, 'lead-1', body);
      const first = await create();
      expect(first.status).toBe(200);
      await expectReplay(first, create);
      expect(await countRows(t.app, 'leads', 'vendor_id = ?', [v.vendorId])).toBe(1);
    });

    it('replace lead: the replay answers the stored lead and changes nothing made since', async () => {
      const v = await vendor();
      const lead = await createLead(v);
      const body = leadBody({ firstName: 'Replaced', emailAddress: lead.emailAddress });
      const replace = () => send(v, 'put', `/leads/${lead.id}`, 'replace-1', body);
      const first = await replace();
      expect(first.body.data.firstName).toBe('Replaced');
      expect((await v.api.patch(`/leads/${lead.id}`).send({ firstName: 'Later' })).status).toBe(200);
      await expectReplay(first, replace);
      expect((await getLead(v, lead.id)).firstName).toBe('Later');
    });

    it('update lead: the replay answers the stored lead and changes nothing made since', async () => {
      const v = await vendor();
      const lead = await createLead(v);
      const update = () => send(v, 'patch', `/leads/${lead.id}`, 'update-1', { jobTitle: 'CTO' });
      const first = await update();
      expect(first.body.data.jobTitle).toBe('CTO');
      expect((await v.api.patch(`/leads/${lead.id}`).send({ jobTitle: 'CEO' })).status).toBe(200);
      await expectReplay(first, update);
      expect((await getLead(v, lead.id)).jobTitle).toBe('CEO');
    });

    it('approve: one contact, and the stored answer even after the lead was archived', async () => {
      const v = await vendor();
      const lead = await createLead(v);
      const approve = () => send(v, 'put', `/leads/${lead.id}/approve`, 'approve-1');
      const first = await approve();
      expect(first.body.data.lead.archived).toBe(false);
      expect((await v.api.put(`/leads/${lead.id}/archive`)).status).toBe(200);
      await expectReplay(first, approve);
      expect(await countRows(t.app, 'contacts', 'lead_id = ?', [lead.id])).toBe(1);
      expect((await getLead(v, lead.id)).archived).toBe(true);
    });

    it('reject: the stored answer even after the lead was archived', async () => {
      const v = await vendor();
      const lead = await createLead(v);
      const reject = () => send(v, 'put', `/leads/${lead.id}/reject`, 'reject-1', { comment: 'not a fit' });
      const first = await reject();
      expect(first.body.data).toMatchObject({ approvalStatus: 'REJECTED', archived: false });
      expect((await v.api.put(`/leads/${lead.id}/archive`)).status).toBe(200);
      await expectReplay(first, reject);
      expect(await getLead(v, lead.id)).toMatchObject({ approvalStatus: 'REJECTED', archived: true });
    });

    it('archive: the stored answer even after the lead was replaced', async () => {
      const v = await vendor();
      const lead = await createLead(v);
      const archive = () => send(v, 'put', `/leads/${lead.id}/archive`, 'archive-1');
      const first = await archive();
      expect(first.body.data.archived).toBe(true);
      const replaced = await v.api
        .put(`/leads/${lead.id}`)
        .send(leadBody({ firstName: 'After', emailAddress: lead.emailAddress }));
      expect(replaced.status).toBe(200);
      const second = await expectReplay(first, archive);
      expect(second.body.data.firstName).toBe(lead.firstName);
      expect((await getLead(v, lead.id)).firstName).toBe('After');
    });

    it('accept an invitation (X20): the stored 200, where running it again would be 404 (accepted once)', async () => {
      const v = await vendor();
      const token = await inviteToken(t.app, v.contactEmail);
      const accept = () => send(v, 'post', '/invitations/accept', 'accept-1', { token });
      const first = await accept();
      expect(first.status).toBe(200);
      await expectReplay(first, accept);
      expect((await v.api.post('/invitations/accept').send({ token })).status).toBe(404);
    });

    it('record activity (X21): the stored answer, and lastActiveAt as the acceptance since left it', async () => {
      const v = await vendor();
      const [user] = (await v.api.get(`/partners/${v.partnerId}/users`)).body.data.data as { id: number }[];
      const path = `/partners/${v.partnerId}/users/${user!.id}/activity`;
      clock.pin(T0);
      const first = await send(v, 'put', path, 'active-1');
      expect(first.body.data.lastActiveAt).toBe(T0);
      clock.pin(plus(3_600_000));
      const token = await inviteToken(t.app, v.contactEmail);
      expect((await v.api.post('/invitations/accept').send({ token })).status).toBe(200); // sets lastActiveAt
      clock.pin(plus(7_200_000));
      await expectReplay(first, () => send(v, 'put', path, 'active-1'));
      const listed = (await v.api.get(`/partners/${v.partnerId}/users`)).body.data.data as {
        lastActiveAt: string;
      }[];
      expect(listed[0]!.lastActiveAt).toBe(plus(3_600_000));
    });

    it('keeps one record per key, DONE with the status and body sent', async () => {
      const v = await vendor();
      const response = await send(v, 'post', `/partners/${v.partnerId}/leads`, 'stored-1', leadBody());
      const rows: { state: string; response_status: number | string; response_body: string }[] = await t.app
        .get(DataSource)
        .query('SELECT state, response_status, response_body FROM idempotency_keys WHERE vendor_id = ?', [
          v.vendorId,
        ]);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ state: 'DONE', response_body: response.text });
      expect(Number(rows[0]!.response_status)).toBe(200);
    });
  });

  describe('answers that reached the business rules are stored too (X2)', () => {
    it('400 DUPLICATE_ENTRY: replayed even once the address became free', async () => {
      const v = await vendor();
      const taken = await createLead(v);
      const body = leadBody({ emailAddress: taken.emailAddress });
      const create = () => send(v, 'post', `/partners/${v.partnerId}/leads`, 'dup-1', body);
      const first = await create();
      expect(first.status).toBe(400);
      expect(first.body.message).toBe('DUPLICATE_ENTRY');
      const freed = `${unique('freed')}@example.test`;
      expect((await v.api.patch(`/leads/${taken.id}`).send({ emailAddress: freed })).status).toBe(200);
      await expectReplay(first, create);
      expect(await countRows(t.app, 'leads', 'vendor_id = ?', [v.vendorId])).toBe(1);
    });

    it('404: replayed even once the user exists, and no email is sent for the replay', async () => {
      const v = await vendor();
      const email = PartnerMother.email('later');
      const reinvite = () =>
        send(v, 'post', `/partners/${v.partnerId}/reinvite`, 'missing-1', { emailAddress: email });
      const first = await reinvite();
      expect(first.status).toBe(404);
      const added = await v.api
        .post(`/partners/${v.partnerId}/users`)
        .send({ users: [{ firstName: 'Lu', emailAddress: email }] });
      expect(added.status).toBe(200);
      await expectReplay(first, reinvite);
      expect(await outboxRows(t.app, [email])).toHaveLength(1); // the invite of add users only
    });

    it('409 INVALID_STATE_TRANSITION: replayed', async () => {
      const v = await vendor();
      const lead = await createLead(v);
      expect((await v.api.put(`/leads/${lead.id}/approve`)).status).toBe(200);
      const reject = () => send(v, 'put', `/leads/${lead.id}/reject`, 'late-1', { comment: 'too late' });
      const first = await reject();
      expect(first.status).toBe(409);
      await expectReplay(first, reject);
    });
  });

  describe('the same key for another request is 422 IDEMPOTENCY_KEY_REUSED and runs nothing (X4)', () => {
    it('another body', async () => {
      const v = await vendor();
      const path = `/partners/${v.partnerId}/leads`;
      expect((await send(v, 'post', path, 'reuse-1', leadBody())).status).toBe(200);
      expectStandardError(await send(v, 'post', path, 'reuse-1', leadBody()), 422, 'IDEMPOTENCY_KEY_REUSED');
      expect(await countRows(t.app, 'leads', 'vendor_id = ?', [v.vendorId])).toBe(1);
    });

    it('another path', async () => {
      const v = await vendor();
      const [a, b] = [await createLead(v), await createLead(v)];
      expect((await send(v, 'put', `/leads/${a.id}/approve`, 'reuse-2')).status).toBe(200);
      expectStandardError(
        await send(v, 'put', `/leads/${b.id}/approve`, 'reuse-2'),
        422,
        'IDEMPOTENCY_KEY_REUSED',
      );
      expect((await getLead(v, b.id)).approvalStatus).toBe('PENDING');
    });

    it('another method', async () => {
      const v = await vendor();
      const lead = await createLead(v);
      const body = leadBody({ firstName: 'Same', emailAddress: lead.emailAddress });
      expect((await send(v, 'put', `/leads/${lead.id}`, 'reuse-3', body)).status).toBe(200);
      expectStandardError(
        await send(v, 'patch', `/leads/${lead.id}`, 'reuse-3', body),
        422,
        'IDEMPOTENCY_KEY_REUSED',
      );
    });

    it('a body where the first request had none (approve with {} after approve without a body)', async () => {
      const v = await vendor();
      const lead = await createLead(v);
      expect((await send(v, 'put', `/leads/${lead.id}/approve`, 'reuse-4')).status).toBe(200);
      expectStandardError(
        await send(v, 'put', `/leads/${lead.id}/approve`, 'reuse-4', {}),
        422,
        'IDEMPOTENCY_KEY_REUSED',
      );
    });

    it('a stored answer that was not 2xx counts as well', async () => {
      const v = await vendor();
      const lead = await createLead(v);
      const path = `/partners/${v.partnerId}/leads`;
      expect(
        (await send(v, 'post', path, 'reuse-5', leadBody({ emailAddress: lead.emailAddress }))).status,
      ).toBe(400);
      expectStandardError(await send(v, 'post', path, 'reuse-5', leadBody()), 422, 'IDEMPOTENCY_KEY_REUSED');
    });
  });

  it('compares bodies as parsed JSON: key order and whitespace do not matter, at any depth (X3)', async () => {
    const v = await vendor();
    const email = PartnerMother.email('order');
    const first = await v.api
      .post('/partners')
      .set('Idempotency-Key', 'order-1')
      .set('Content-Type', 'application/json')
      .send(
        `{"companyName":"Order ${email}","contactName":"Olga","contactEmailAddress":"${email}","users":[{"firstName":"Olga","emailAddress":"${email}","lastName":null}]}`,
      );
    expect(first.status).toBe(200);
    await expectReplay(first, () =>
      v.api
        .post('/partners')
        .set('Idempotency-Key', 'order-1')
        .set('Content-Type', 'application/json; charset=utf-8')
        .send(
          `{ "users": [ {"lastName": null, "emailAddress": "${email}", "firstName": "Olga"} ],\n  "contactEmailAddress": "${email}", "contactName": "Olga", "companyName": "Order ${email}" }`,
        ),
    );
    expect(await countUsers(t.app, email)).toBe(1);
  });

  describe('the header value (X1)', () => {
    it('accepts 255 visible ASCII characters', async () => {
      const v = await vendor();
      const key = Array.from({ length: 255 }, (_, i) => String.fromCharCode(0x21 + (i % 94))).join('');
      const response = await send(v, 'post', `/partners/${v.partnerId}/leads`, key, leadBody());
      expect(response.status).toBe(200);
      expect(await keyRows(v.vendorId)).toBe(1);
    });

    it.each([
      ['256 characters', 'k'.repeat(256), 'must be at most 255 characters'],
      ['an empty value', '', 'must not be empty'],
      ['a space', 'my key', 'must hold only visible ASCII characters (0x21-0x7E)'],
    ])(
      'refuses %s with VALIDATION_FAILED naming Idempotency-Key first, and writes nothing',
      async (_name, key, error) => {
        const v = await vendor();
        const response = await send(
          v,
          'post',
          `/partners/${v.partnerId}/leads`,
          key,
          leadBody({ emailAddress: 'not-an-email' }),
        );
        expect(response.status).toBe(400);
        expect(response.body.message).toBe('VALIDATION_FAILED');
        expect(response.body.errors).toEqual([
          { field: 'Idempotency-Key', error },
          { field: 'emailAddress', error: 'must be a well-formed email address' },
        ]);
        expect(await countRows(t.app, 'leads', 'vendor_id = ?', [v.vendorId])).toBe(0);
        expect(await keyRows(v.vendorId)).toBe(0);
      },
    );

    it('refuses a key on an operation without a body, and the lead keeps its state', async () => {
      const v = await vendor();
      const lead = await createLead(v);
      const response = await send(v, 'put', `/leads/${lead.id}/approve`, 'a\tb');
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([
        { field: 'Idempotency-Key', error: 'must hold only visible ASCII characters (0x21-0x7E)' },
      ]);
      expect((await getLead(v, lead.id)).approvalStatus).toBe('PENDING');
    });

    it('answers a body that is not JSON with INVALID_REQUEST before the key (D37)', async () => {
      const v = await vendor();
      const response = await v.api
        .post(`/partners/${v.partnerId}/leads`)
        .set('Idempotency-Key', 'bad key')
        .set('Content-Type', 'application/json')
        .send('{"firstName":');
      expectStandardError(response, 400, 'INVALID_REQUEST');
    });

    it.each([
      ['not JSON', 'application/json', '{"firstName":'],
      ['another content type', 'text/plain', '{}'],
      ['empty where a body is required', 'application/json', undefined],
      ['JSON but not an object', 'application/json', '[1]'],
      ['nested too deep', 'application/json', `${'['.repeat(40)}${']'.repeat(40)}`],
    ])(
      'answers a body that is %s with INVALID_REQUEST before a stored or a held key is looked at (D37)',
      async (_name, contentType, text) => {
        const v = await vendor();
        const path = `/partners/${v.partnerId}/leads`;
        const unusable = (key: string) => {
          const request = v.api.post(path).set('Idempotency-Key', key).set('Content-Type', contentType);
          return text === undefined ? request : request.send(text);
        };
        // a key whose answer is stored: not 422 for "another body", not replayed
        expect((await send(v, 'post', path, 'stored-1', leadBody())).status).toBe(200);
        const refused = await unusable('stored-1');
        expectStandardError(refused, 400, 'INVALID_REQUEST');
        expect(refused.headers['idempotent-replayed']).toBeUndefined();
        // a key held by a running request: not 409
        clock.pin(T0);
        const held = await t.app.get(IdempotentRequests).begin(v.vendorId, 'held-1', 'f'.repeat(64));
        expect(held.kind).toBe('run');
        expectStandardError(await unusable('held-1'), 400, 'INVALID_REQUEST');
        // a free key: nothing claimed, so it is still free for the corrected request
        expectStandardError(await unusable('free-1'), 400, 'INVALID_REQUEST');
        expect(await keyRows(v.vendorId)).toBe(2);
        expect(await countRows(t.app, 'leads', 'vendor_id = ?', [v.vendorId])).toBe(1);
      },
    );

    it('keeps a key on approve, whose body is ignored (D38): an unreadable body runs, and its retry is replayed', async () => {
      const v = await vendor();
      const lead = await createLead(v);
      const approve = () =>
        v.api
          .put(`/leads/${lead.id}/approve`)
          .set('Idempotency-Key', 'approve-odd-body')
          .set('Content-Type', 'text/plain')
          .send('not json');
      const ran = await approve();
      expect(ran.status).toBe(200);
      await expectReplay(ran, approve);
      expect(await keyRows(v.vendorId)).toBe(1);
    });

    it('refuses non-ASCII bytes and a header sent twice, over a raw socket', async () => {
      const v = await vendor();
      await t.app.listen(0, '127.0.0.1');
      const port = Number(new URL(await t.app.getUrl()).port);
      const body = JSON.stringify(leadBody());
      const head = (keyLines: string) =>
        `POST /api/v1/vendors/partners/${v.partnerId}/leads HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n` +
        `X-API-KEY: ${v.apiKey}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `${keyLines}\r\n${body}`;
      for (const keyLines of [
        'Idempotency-Key: cl\u00e9\r\n',
        'Idempotency-Key: a\r\nIdempotency-Key: b\r\n',
      ]) {
        const [response] = (await rawExchange(port, head(keyLines))).responses;
        expect(response?.status).toBe(400);
        expect((response?.body as { errors: { field: string }[] }).errors[0]!.field).toBe('Idempotency-Key');
      }
      expect(await countRows(t.app, 'leads', 'vendor_id = ?', [v.vendorId])).toBe(0);
    });

    it('is ignored on unknown routes: 404 of D11, nothing stored, nothing replayed', async () => {
      const v = await vendor();
      for (const key of ['not a valid key', 'unknown-1', 'unknown-1']) {
        const response = await send(v, 'post', '/nothing-here', key, {});
        expectStandardError(response, 404, 'RESOURCE_NOT_FOUND');
        expect(response.headers['idempotent-replayed']).toBeUndefined();
      }
      expect(await keyRows(v.vendorId)).toBe(0);
    });

    it('is ignored on GET: reads are safe to retry anyway', async () => {
      const v = await vendor();
      const lead = await createLead(v);
      const response = await v.api.get(`/leads/${lead.id}`).set('Idempotency-Key', 'not a valid key');
      expect(response.status).toBe(200);
      expect(response.headers['idempotent-replayed']).toBeUndefined();
      expect(await keyRows(v.vendorId)).toBe(0);
    });
  });

  describe('answers given before the business rules, and 5xx, leave the key free for the corrected retry (X2)', () => {
    it('400 VALIDATION_FAILED, then the corrected request with the same key runs, then it is replayed', async () => {
      const v = await vendor();
      const path = `/partners/${v.partnerId}/leads`;
      const refused = await send(v, 'post', path, 'fix-1', leadBody({ emailAddress: 'nope' }));
      expect(refused.body.message).toBe('VALIDATION_FAILED');
      expect(await keyRows(v.vendorId)).toBe(0);
      const body = leadBody();
      const ran = await send(v, 'post', path, 'fix-1', body);
      expect(ran.status).toBe(200);
      await expectReplay(ran, () => send(v, 'post', path, 'fix-1', body));
      expect(await countRows(t.app, 'leads', 'vendor_id = ?', [v.vendorId])).toBe(1);
    });

    it('400 INVALID_REQUEST, then the corrected request runs', async () => {
      const v = await vendor();
      const path = `/partners/${v.partnerId}/leads`;
      const refused = await v.api
        .post(path)
        .set('Idempotency-Key', 'fix-2')
        .set('Content-Type', 'application/json')
        .send('[1]');
      expectStandardError(refused, 400, 'INVALID_REQUEST');
      expect((await send(v, 'post', path, 'fix-2', leadBody())).status).toBe(200);
    });

    it('401 and 413 are not kept: the key stays free, and the corrected request runs (X2)', async () => {
      const v = await vendor();
      const path = `/partners/${v.partnerId}/leads`;
      const body = leadBody();
      const noKey = await t.http.post(`/api/v1/vendors${path}`).set('Idempotency-Key', 'fix-3').send(body);
      expect(noKey.status).toBe(401);
      expect(noKey.body).toMatchObject({ success: false, message: 'API_KEY_MISSING' });
      const tooLarge = await v.api
        .post(path)
        .set('Idempotency-Key', 'fix-3')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ ...body, pad: 'x'.repeat(1_048_576) }));
      expect(tooLarge.status).toBe(413);
      expect(await keyRows(v.vendorId)).toBe(0);
      const ran = await send(v, 'post', path, 'fix-3', body);
      expect(ran.status).toBe(200);
      expect(ran.headers['idempotent-replayed']).toBeUndefined();
      expect(await keyRows(v.vendorId)).toBe(1);
    });

    it.each([
      ['500', () => new Error('injected fault'), 500, 'INTERNAL_SERVER_ERROR'],
      ['503', () => new StoreUnavailableError('timeout'), 503, 'SERVICE_UNAVAILABLE'],
    ])('%s, then the same request with the same key runs', async (_name, fault, status, message) => {
      const v = await vendor();
      const path = `/partners/${v.partnerId}/leads`;
      const body = leadBody();
      const spy = jest.spyOn(t.app.get(CreateLeadUseCase), 'execute').mockRejectedValueOnce(fault());
      try {
        expectStandardError(await send(v, 'post', path, 'fault-1', body), status, message);
      } finally {
        spy.mockRestore();
      }
      expect(await keyRows(v.vendorId)).toBe(0);
      const ran = await send(v, 'post', path, 'fault-1', body);
      expect(ran.status).toBe(200);
      expect(ran.headers['idempotent-replayed']).toBeUndefined();
      expect(await countRows(t.app, 'leads', 'vendor_id = ?', [v.vendorId])).toBe(1);
    });
  });

  it('shares keys between the API keys of one vendor: a retry after a key rotation is replayed (X1)', async () => {
    const v = await vendor();
    const body = leadBody();
    const first = await send(v, 'post', `/partners/${v.partnerId}/leads`, 'rotate-1', body);
    expect(first.status).toBe(200);
    const { apiKey } = await t.app.get(CreateApiKeyUseCase).execute(v.vendorId);
    await expectReplay(first, () =>
      t.http
        .post(`/api/v1/vendors/partners/${v.partnerId}/leads`)
        .set('X-API-KEY', apiKey)
        .set('Idempotency-Key', 'rotate-1')
        .send(body),
    );
  });

  it('scopes keys to the vendor: two vendors use one key string independently (X1)', async () => {
    const [a, b] = [await vendor(), await vendor()];
    const [bodyA, bodyB] = [leadBody(), leadBody()];
    const ranA = await send(a, 'post', `/partners/${a.partnerId}/leads`, 'shared-key', bodyA);
    const ranB = await send(b, 'post', `/partners/${b.partnerId}/leads`, 'shared-key', bodyB);
    expect([ranA.status, ranB.status]).toEqual([200, 200]);
    expect(ranB.headers['idempotent-replayed']).toBeUndefined();
    await expectReplay(ranA, () => send(a, 'post', `/partners/${a.partnerId}/leads`, 'shared-key', bodyA));
    await expectReplay(ranB, () => send(b, 'post', `/partners/${b.partnerId}/leads`, 'shared-key', bodyB));
    expect(await countRows(t.app, 'leads', 'vendor_id = ?', [a.vendorId])).toBe(1);
    expect(await countRows(t.app, 'leads', 'vendor_id = ?', [b.vendorId])).toBe(1);
  });

  describe('a key held by a running request (X4)', () => {
    it('is 409 IDEMPOTENCY_KEY_IN_USE with Retry-After while its lease lasts; once the lease passed the retry runs', async () => {
      const v = await vendor();
      const lease = t.app.get(IdempotencySettings).leaseMs;
      clock.pin(T0);
      // a request on another instance claimed the key and died before answering
      const held = await t.app.get(IdempotentRequests).begin(v.vendorId, 'crash-1', 'f'.repeat(64));
      expect(held.kind).toBe('run');
      const path = `/partners/${v.partnerId}/leads`;
      const body = leadBody();
      clock.pin(plus(lease - 1));
      const busy = await send(v, 'post', path, 'crash-1', body);
      expectStandardError(busy, 409, 'IDEMPOTENCY_KEY_IN_USE');
      expect(busy.headers['retry-after']).toBe('1');
      expect(await countRows(t.app, 'leads', 'vendor_id = ?', [v.vendorId])).toBe(0);
      clock.pin(plus(lease));
      const ran = await send(v, 'post', path, 'crash-1', body);
      expect(ran.status).toBe(200);
      await expectReplay(ran, () => send(v, 'post', path, 'crash-1', body));
      expect(await countRows(t.app, 'leads', 'vendor_id = ?', [v.vendorId])).toBe(1);
    });

    it('runs one of 10 parallel identical requests; the others get 409 or the replay', async () => {
      const v = await vendor();
      const body = leadBody();
      const responses = await Promise.all(
        Array.from({ length: 10 }, () =>
          send(v, 'post', `/partners/${v.partnerId}/leads`, 'parallel-1', body),
        ),
      );
      const ran = responses.filter((r) => r.status === 200 && r.headers['idempotent-replayed'] === undefined);
      const replayed = responses.filter(
        (r) => r.status === 200 && r.headers['idempotent-replayed'] === 'true',
      );
      const busy = responses.filter((r) => r.status === 409 && r.body.message === 'IDEMPOTENCY_KEY_IN_USE');
      expect(ran).toHaveLength(1);
      expect(ran.length + replayed.length + busy.length).toBe(10);
      for (const r of replayed) expect(r.text).toBe(ran[0]!.text);
      expect(await countRows(t.app, 'leads', 'vendor_id = ?', [v.vendorId])).toBe(1);
    });
  });

  describe('24 hours (X3, X5)', () => {
    it('replays until 24 hours have passed, then the request runs again', async () => {
      const v = await vendor();
      const reinvite = () =>
        send(v, 'post', `/partners/${v.partnerId}/reinvite`, 'day-1', { emailAddress: v.contactEmail });
      clock.pin(T0);
      const first = await reinvite();
      expect(first.status).toBe(200);
      clock.pin(plus(DAY_MS - 1));
      await expectReplay(first, reinvite);
      expect(await outboxRows(t.app, [v.contactEmail])).toHaveLength(2);
      clock.pin(plus(DAY_MS));
      const again = await reinvite();
      expect(again.status).toBe(200);
      expect(again.headers['idempotent-replayed']).toBeUndefined();
      expect(await outboxRows(t.app, [v.contactEmail])).toHaveLength(3);
      clock.pin(plus(DAY_MS + 1));
      await expectReplay(again, reinvite);
    });

    it('the sweep deletes every record 24 hours old, stored or still running, batch after batch, and keeps the younger ones', async () => {
      const v = await vendor();
      const path = `/partners/${v.partnerId}/leads`;
      clock.pin(T0);
      for (let i = 0; i < 5; i++)
        expect((await send(v, 'post', path, `old-${i}`, leadBody())).status).toBe(200);
      // a claim whose request never finished (its instance died) expires like any record
      expect(
        (await t.app.get(IdempotentRequests).begin(v.vendorId, 'old-running', 'f'.repeat(64))).kind,
      ).toBe('run');
      clock.pin(plus(60_000));
      expect((await send(v, 'post', path, 'young', leadBody())).status).toBe(200);
      expect(await keyRows(v.vendorId)).toBe(7);
      clock.pin(plus(DAY_MS - 1));
      await t.app.get(IdempotencySweeper).sweep();
      expect(await keyRows(v.vendorId)).toBe(7);
      clock.pin(plus(DAY_MS));
      expect(await t.app.get(IdempotencySweeper).sweep()).toBeGreaterThanOrEqual(6); // in batches of 2
      const left: { idempotency_key: string }[] = await t.app
        .get(DataSource)
        .query('SELECT idempotency_key FROM idempotency_keys WHERE vendor_id = ?', [v.vendorId]);
      expect(left).toEqual([{ idempotency_key: 'young' }]);
    });
  });

  describe('the OpenAPI document', () => {
    type Op = {
      parameters?: { name: string; in: string; required?: boolean; schema?: object }[];
      responses: Record<
        string,
        {
          headers?: Record<string, unknown>;
          content?: Record<string, { examples?: Record<string, unknown> }>;
        }
      >;
    };
    let document: OpenAPIObject;
    beforeAll(() => {
      document = openApiDocument(t.app);
    });
    const operations = (methods: string[]) =>
      Object.entries(document.paths).flatMap(([path, item]) =>
        methods
          .filter((m) => m in item)
          .map((m) => [`${m} ${path}`, (item as Record<string, Op>)[m]!] as const),
      );

    it('gives every POST, PUT and PATCH the Idempotency-Key header, 422 and 409 with examples, and Idempotent-Replayed on 200', () => {
      const writes = operations(['post', 'put', 'patch']);
      expect(writes.length).toBeGreaterThanOrEqual(11);
      for (const [where, op] of writes) {
        const header = (op.parameters ?? []).find((p) => p.in === 'header' && p.name === 'Idempotency-Key');
        expect([where, header]).toEqual([
          where,
          expect.objectContaining({
            required: false,
            schema: expect.objectContaining({ minLength: 1, maxLength: 255 }),
          }),
        ]);
        expect([
          where,
          Object.keys(op.responses['422']?.content?.['application/json']?.examples ?? {}),
        ]).toEqual([where, ['IDEMPOTENCY_KEY_REUSED']]);
        expect([
          where,
          Object.keys(op.responses['409']?.content?.['application/json']?.examples ?? {}),
        ]).toEqual([where, expect.arrayContaining(['IDEMPOTENCY_KEY_IN_USE'])]);
        expect([where, Object.keys(op.responses['200']?.headers ?? {})]).toEqual([
          where,
          expect.arrayContaining(['Idempotent-Replayed']),
        ]);
      }
    });

    it('keeps approve and reject’s INVALID_STATE_TRANSITION beside IDEMPOTENCY_KEY_IN_USE under 409, and leaves GET alone', () => {
      const approve = document.paths['/api/v1/vendors/leads/{leadId}/approve']!.put as unknown as Op;
      expect(Object.keys(approve.responses['409']!.content!['application/json']!.examples!).sort()).toEqual([
        'IDEMPOTENCY_KEY_IN_USE',
        'INVALID_STATE_TRANSITION',
      ]);
      for (const [where, op] of operations(['get'])) {
        expect([
          where,
          (op.parameters ?? []).some((p) => p.name === 'Idempotency-Key'),
          op.responses['422'],
        ]).toEqual([where, false, undefined]);
      }
    });
  });
});
