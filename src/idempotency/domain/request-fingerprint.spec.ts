import { canonicalJson, requestFingerprint } from './request-fingerprint';

const json = (value: unknown) => ({ kind: 'json' as const, value });

describe('requestFingerprint (X3, X4)', () => {
  it('ignores the order of object keys, at every depth', () => {
    const a = requestFingerprint('POST', '/p', json({ a: 1, b: { c: [1, { d: 2, e: 3 }], f: null } }));
    const b = requestFingerprint('POST', '/p', json({ b: { f: null, c: [1, { e: 3, d: 2 }] }, a: 1 }));
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });

  it('tells apart another method, another path, another body, and array order', () => {
    const base = requestFingerprint('POST', '/p', json({ a: [1, 2] }));
    expect(requestFingerprint('PUT', '/p', json({ a: [1, 2] }))).not.toBe(base);
    expect(requestFingerprint('POST', '/q', json({ a: [1, 2] }))).not.toBe(base);
    expect(requestFingerprint('POST', '/p', json({ a: [2, 1] }))).not.toBe(base);
    expect(requestFingerprint('POST', '/p', json({ a: [1, 2], b: 1 }))).not.toBe(base);
    expect(requestFingerprint('POST', '/p', json({ a: ['1', 2] }))).not.toBe(base);
  });

  it('tells apart no body, an empty object, and a body that could not be used', () => {
    const none = requestFingerprint('PUT', '/p', { kind: 'none' });
    const empty = requestFingerprint('PUT', '/p', json({}));
    const unusable = requestFingerprint('PUT', '/p', { kind: 'unusable', reason: 'body is not valid JSON' });
    expect(new Set([none, empty, unusable]).size).toBe(3);
    expect(requestFingerprint('PUT', '/p', { kind: 'none' })).toBe(none);
  });

  it('tells apart a number too large for a double from null (`1e400` parses to Infinity)', () => {
    const huge = requestFingerprint('POST', '/p', json(JSON.parse('{"a":1e400}')));
    expect(huge).not.toBe(requestFingerprint('POST', '/p', json({ a: null })));
    expect(requestFingerprint('POST', '/p', json(JSON.parse('{"a":-1e400}')))).not.toBe(huge);
  });

  it('cannot be fooled by moving text between the path and the body', () => {
    expect(requestFingerprint('POST', '/p\n=1', json(2))).not.toBe(
      requestFingerprint('POST', '/p', json('1\n=2')),
    );
  });
});

describe('canonicalJson', () => {
  it('writes JSON with sorted keys and JSON escapes', () => {
    expect(canonicalJson({ b: 'x"y', a: [true, null, 1.5] })).toBe('{"a":[true,null,1.5],"b":"x\\"y"}');
    expect(JSON.parse(canonicalJson({ z: { y: 1 }, a: '\u00e9' }))).toEqual({ a: '\u00e9', z: { y: 1 } });
  });
});
