import { isDeliverableEmailAddress } from './email';

describe('isDeliverableEmailAddress (D13, docs/email-addresses.md)', () => {
  it.each([
    'ada@example.com',
    'Ada.Lovelace@Example.COM',
    'a+tag@b.co',
    "o'brien@example.ie",
    'x!#$%&*/=?^_`{|}~-@example.com',
    'user@sub-domain.example.co.uk',
    'josé@exämple.de',
    '用户@例子.广告',
    'a@xn--mnchen-3ya.de',
    'a@example.भारत', // a top-level label with a vowel sign (a mark) between its letters
    'a@example.e\u0301x',
    'a@1st.example.com',
    `${'a'.repeat(64)}@example.com`,
    `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(57)}`,
  ])('accepts %j', (address) => {
    expect(isDeliverableEmailAddress(address)).toBe(true);
  });

  it.each([
    ['the SMTP injection of the issue', '"x\r\nRCPT TO:<smtpinj@evil.example>"@ok.example'],
    ['a quoted local part', '"john doe"@example.com'],
    ['an unbalanced quote', 'a"b@example.com'],
    ['angle brackets', '<a@example.com>'],
    ['a display name', 'Ada <a@example.com>'],
    ['a CR LF', 'a\r\nb@example.com'],
    ['a LF in the domain', 'a@exam\nple.com'],
    ['a NUL', 'a\u0000@example.com'],
    ['a tab', 'a\t@example.com'],
    ['a DEL', 'a\u007f@example.com'],
    ['a C1 control', 'a\u0085@example.com'],
    ['a right-to-left override', 'a\u202e@example.com'],
    ['a zero-width space', 'a\u200b@example.com'],
    ['a no-break space', 'a\u00a0@example.com'],
    ['a line separator', 'a\u2028@example.com'],
    ['an unpaired surrogate', 'a\ud800@example.com'],
    ['a space', 'a b@example.com'],
    ['a leading blank', ' a@example.com'],
    ['a comment', 'a(comment)@example.com'],
    ['a backslash', 'a\\b@example.com'],
    ['two @', 'a@b@example.com'],
    ['no @', 'example.com'],
    ['an empty local part', '@example.com'],
    ['a leading dot', '.a@example.com'],
    ['a trailing dot', 'a.@example.com'],
    ['two dots', 'a..b@example.com'],
    ['no top-level domain', 'a@localhost'],
    ['an IP literal', 'a@[127.0.0.1]'],
    ['an IP address', 'a@127.0.0.1'],
    ['a label starting with a hyphen', 'a@-x.example.com'],
    ['a label ending with a hyphen', 'a@x-.example.com'],
    ['an empty label', 'a@x..example.com'],
    ['a trailing dot in the domain', 'a@example.com.'],
    ['an underscore in the domain', 'a@ex_ample.com'],
    ['a one-letter top-level domain', 'a@example.c'],
    ['a label over 63 characters', `a@${'b'.repeat(64)}.com`],
    ['a local part over 64 octets', `${'a'.repeat(65)}@example.com`],
    ['a local part over 64 octets in UTF-8', `${'é'.repeat(33)}@example.com`],
    [
      'a domain over 253 characters',
      `a@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.${'e'.repeat(62)}`,
    ],
    [
      'a domain over 253 characters beyond the BMP',
      `a@${'\u{20000}'.repeat(63)}.${'\u{20000}'.repeat(63)}.${'\u{20000}'.repeat(63)}.${'\u{20000}'.repeat(62)}`,
    ],
    ['a top-level label of marks only', 'a@example.\u0301\u0301'],
    ['a top-level label of one letter and a mark', 'a@example.c\u0301'],
    ['an empty string', ''],
  ])('refuses %s', (_label, address) => {
    expect(isDeliverableEmailAddress(address)).toBe(false);
  });

  it('counts the domain in characters, not UTF-16 units (docs/email-addresses.md, D14)', () => {
    // 186 characters, 366 UTF-16 units: U+20000 is one character written as a surrogate pair
    const label = '\u{20000}'.repeat(60);
    expect(isDeliverableEmailAddress(`a@${label}.${label}.${label}.com`)).toBe(true);
    // 253 characters exactly
    const long = `a@${'\u{20000}'.repeat(63)}.${'\u{20000}'.repeat(63)}.${'\u{20000}'.repeat(63)}.${'\u{20000}'.repeat(61)}`;
    expect(isDeliverableEmailAddress(long)).toBe(true);
  });

  it('takes linear time on a long near-miss (no catastrophic backtracking)', () => {
    const near = `${'a.'.repeat(20_000)}@${'b-'.repeat(20_000)}`;
    expect(isDeliverableEmailAddress(near)).toBe(false);
  });
});
