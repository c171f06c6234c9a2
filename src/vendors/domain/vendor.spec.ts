import { ValidationError } from '../../shared/domain/domain-error';
import { API_KEY_PREFIX, ApiKeySecret } from './api-key';
import { validateLeadOption } from './lead-option';
import { Vendor } from './vendor';

describe('Vendor', () => {
  it('registers a vendor with its name as given', () => {
    const now = new Date('2026-01-01T00:00:00.000Z');
    const vendor = Vendor.register('  Acme  ', now);
    expect(vendor).toMatchObject({ id: undefined, name: '  Acme  ', createdAt: now });
  });

  it.each(['', '   ', 'x'.repeat(256)])('refuses the name %j', (name) => {
    expect(() => Vendor.register(name, new Date())).toThrow(ValidationError);
  });
});

describe('ApiKeySecret (D9)', () => {
  it('makes a recognisable key with at least 32 bytes of entropy', () => {
    const key = ApiKeySecret.generate();
    expect(key.value.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(Buffer.from(key.value.slice(API_KEY_PREFIX.length), 'base64url')).toHaveLength(32);
  });

  it('never makes the same key twice and hashes deterministically', () => {
    const a = ApiKeySecret.generate();
    const b = ApiKeySecret.generate();
    expect(a.value).not.toBe(b.value);
    expect(a.hash).toBe(ApiKeySecret.hash(a.value));
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.hash).not.toContain(a.value);
  });
});

describe('validateLeadOption (D15)', () => {
  it('accepts source and status', () => {
    expect(validateLeadOption('source', 'Web')).toEqual({ kind: 'source', label: 'Web' });
    expect(validateLeadOption('status', 'Hot')).toEqual({ kind: 'status', label: 'Hot' });
  });

  it('names every bad field', () => {
    try {
      validateLeadOption('colour', ' ');
      fail('expected a ValidationError');
    } catch (error) {
      expect((error as ValidationError).fieldErrors.map((e) => e.field)).toEqual(['kind', 'label']);
    }
  });
});
