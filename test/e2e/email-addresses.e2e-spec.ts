import { createLead, invitePartner, leadBody, vendorApi } from '../support/lead-fixtures';
import { PartnerMother } from '../support/partner-mother';
import { TestApp, createTestApp, createVendor } from '../support/test-app';

/** Addresses a mail server would not deliver to as stored, or that would smuggle SMTP commands. */
const REFUSED = [
  '"x\r\nRCPT TO:<smtpinj@evil.example>"@ok.example',
  'a\r\nBcc: b@evil.example',
  'a\u0000@ok.example',
  '"unbalanced@ok.example',
  '<a@ok.example>',
  'Ada <a@ok.example>',
  'a b@ok.example',
];

/**
 * D13 with the accepted syntax of docs/email-addresses.md: every email field of every endpoint
 * refuses these with VALIDATION_FAILED naming the field (the import's validator: its unit spec).
 */
describe('email addresses (D13)', () => {
  let t: TestApp;
  let api: ReturnType<typeof vendorApi>;
  let apiKey: string;
  let partnerId: number;
  let leadId: number;

  beforeAll(async () => {
    t = await createTestApp();
    ({ apiKey } = await createVendor(t.app));
    api = vendorApi(t.http, apiKey);
    partnerId = await invitePartner(t.http, apiKey);
    leadId = (await createLead(t.http, apiKey, partnerId)).id;
  });
  afterAll(() => t.close());

  function expectRefused(
    response: { status: number; body: { message: string; errors: unknown } },
    field: string,
  ) {
    expect(response.status).toBe(400);
    expect(response.body.message).toBe('VALIDATION_FAILED');
    expect(response.body.errors).toEqual([{ field, error: 'must be a well-formed email address' }]);
  }

  it.each(REFUSED)('refuses %j in every email field, naming it', async (address) => {
    expectRefused(
      await api.post('/partners').send(PartnerMother.invite({ contactEmailAddress: address })),
      'contactEmailAddress',
    );
    expectRefused(
      await api.post('/partners').send(
        PartnerMother.invite({
          users: [PartnerMother.user(), PartnerMother.user({ emailAddress: address })],
        }),
      ),
      'users[1].emailAddress',
    );
    expectRefused(
      await api
        .post(`/partners/${partnerId}/users`)
        .send({ users: [PartnerMother.user({ emailAddress: address })] }),
      'users[0].emailAddress',
    );
    expectRefused(
      await api.post(`/partners/${partnerId}/reinvite`).send({ emailAddress: address }),
      'emailAddress',
    );
    expectRefused(
      await api.post(`/partners/${partnerId}/leads`).send(leadBody({ emailAddress: address })),
      'emailAddress',
    );
    expectRefused(
      await api.put(`/leads/${leadId}`).send(leadBody({ emailAddress: address })),
      'emailAddress',
    );
    expectRefused(await api.patch(`/leads/${leadId}`).send({ emailAddress: address }), 'emailAddress');
  });

  it('accepts addresses of the subset in any script, stored as sent', async () => {
    for (const emailAddress of ['O.Brien+tag@Example.IE', 'josé@exämple.de', '用户@例子.广告']) {
      const response = await api.post(`/partners/${partnerId}/leads`).send(leadBody({ emailAddress }));
      expect(response.status).toBe(200);
      expect(response.body.data.emailAddress).toBe(emailAddress);
    }
  });
});
