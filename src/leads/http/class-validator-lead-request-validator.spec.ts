import 'reflect-metadata';
import { getMetadataStorage } from 'class-validator';
import { validateBody } from '../../shared/http/validation';
import { WRITABLE_FIELDS } from '../domain/lead-details';
import { ClassValidatorLeadRequestValidator } from './class-validator-lead-request-validator';
import { LeadBody } from './lead.dto';

/** The import's validator must answer exactly what POST leads' validateBody(LeadBody) answers. */
describe('ClassValidatorLeadRequestValidator', () => {
  const validator = new ClassValidatorLeadRequestValidator();
  const valid = { firstName: 'Ada', emailAddress: 'ada@example.test', companyName: 'Engines' };

  function expectSameAsPost(body: Record<string, unknown>): void {
    const post = validateBody(LeadBody, body);
    const ours = validator.validate(body);
    expect({ details: ours.details, errors: ours.errors }).toEqual({
      details: { ...post.value },
      errors: post.errors,
    });
  }

  it('checks the fields LeadBody declares, and only those (a new DTO field needs the shortcut too)', () => {
    const declared = new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(LeadBody, '', true, false)
        .map((m) => m.propertyName),
    );
    expect([...declared].sort()).toEqual([...WRITABLE_FIELDS].sort());
  });

  const text255 = 'x'.repeat(255);
  const emoji255 = '😀'.repeat(255); // 510 UTF-16 units, 255 code points (D14)
  const cases: [string, Record<string, unknown>][] = [
    ['the three required fields', valid],
    [
      'every field, at its limits',
      {
        ...valid,
        firstName: emoji255,
        lastName: text255,
        phoneNumber: '+1',
        linkedInUrl: 'l',
        websiteUrl: 'w',
        companySize: '10',
        industry: 'i',
        jobTitle: 'j',
        city: 'c',
        state: 's',
        country: 'c',
        source: 1,
        status: Number.MAX_SAFE_INTEGER,
        leadAge: 2_147_483_647,
        productsInterested: 'p'.repeat(5000),
        businessImpactMetrics: '',
        externalId: 'e',
      },
    ],
    ['explicit nulls of optional fields', { ...valid, lastName: null, source: null, leadAge: null }],
    ['unknown and read-only fields (D5)', { ...valid, id: 7, approvalStatus: 'APPROVED', colour: 'red' }],
    [
      'a __proto__ key (D5)',
      JSON.parse('{"__proto__": {"x": 1}, "firstName": "A", "emailAddress": "a@b.co", "companyName": "C"}'),
    ],
    ['nothing', {}],
    ['missing firstName', { emailAddress: 'a@b.co', companyName: 'C' }],
    ['null firstName', { ...valid, firstName: null }],
    ['blank firstName', { ...valid, firstName: ' \t' }],
    ['empty companyName', { ...valid, companyName: '' }],
    ['firstName of 256 code points', { ...valid, firstName: `${emoji255}x` }],
    ['a variation selector past 255 (D14)', { ...valid, lastName: `${'a'.repeat(255)}\uFE0F` }],
    ['an unpaired surrogate', { ...valid, city: 'a\uD800b' }],
    ['a number as firstName (D17)', { ...valid, firstName: 42 }],
    ['an object as lastName', { ...valid, lastName: { a: 1 } }],
    ['a list as city', { ...valid, city: ['x'] }],
    ['a boolean as country', { ...valid, country: true }],
    ['malformed email (D13)', { ...valid, emailAddress: 'not-an-email' }],
    ['email with spaces', { ...valid, emailAddress: ' ada@example.test' }],
    ['upper-case email', { ...valid, emailAddress: 'ADA@Example.TEST' }],
    ['email of 256 characters', { ...valid, emailAddress: `${'a'.repeat(64)}@${'b'.repeat(187)}.test` }],
    ['source as a string (D17)', { ...valid, source: '1' }],
    ['source 0', { ...valid, source: 0 }],
    ['status fractional', { ...valid, status: 1.5 }],
    ['status beyond 2^53', { ...valid, status: 2 ** 53 }],
    ['leadAge negative (D15)', { ...valid, leadAge: -1 }],
    ['leadAge fractional', { ...valid, leadAge: 0.5 }],
    ['leadAge beyond INT', { ...valid, leadAge: 2_147_483_648 }],
    ['leadAge as a string', { ...valid, leadAge: '3' }],
    ['products of 5,001 characters', { ...valid, productsInterested: 'p'.repeat(5001) }],
    ['several errors at once (D18)', { firstName: '', emailAddress: 'x', leadAge: -2, source: 'a' }],
  ];

  it.each(cases)('%s: same details and errors as POST', (_name, body) => expectSameAsPost(body));

  it.each([
    '"x\r\nRCPT TO:<smtpinj@evil.example>"@ok.example',
    'a\u0000@ok.example',
    '"quoted"@ok.example',
    '<a@ok.example>',
  ])('refuses %j as an address (D13, docs/email-addresses.md), like POST', (emailAddress) => {
    const body = { ...valid, emailAddress };
    expect(validator.validate(body).errors).toEqual([
      { field: 'emailAddress', error: 'must be a well-formed email address' },
    ]);
    expectSameAsPost(body);
  });

  it('agrees with POST on random mixes of valid and invalid values', () => {
    const pool: unknown[] = [null, '', ' ', 'x', 'a@b.co', 'Ä@b.co', 0, 1, -1, 1.5, true, [], {}, 'a\uDC00'];
    const fields = [...WRITABLE_FIELDS, 'other'];
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let i = 0; i < 2000; i++) {
      const body: Record<string, unknown> = { ...valid };
      for (let k = random(4); k > 0; k--) body[fields[random(fields.length)]!] = pool[random(pool.length)];
      expectSameAsPost(body);
    }
  });
});
