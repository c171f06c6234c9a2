import { escapeHtml, oneLine } from './html';
import { partnerInviteMail } from './partner-invite.template';

const input = {
  to: 'ann@partner.test',
  firstName: 'Ann',
  vendorName: 'Acme Vendor',
  companyName: 'Partner GmbH',
  acceptUrl: 'https://portal.test/app/invitations/abc_DEF-123',
  validForDays: 14,
};

describe('partnerInviteMail (D36)', () => {
  it('names the vendor and the partner company and carries the accept link in both bodies', () => {
    const mail = partnerInviteMail(input);
    expect(mail.to).toBe('ann@partner.test');
    expect(mail.subject).toContain('Acme Vendor');
    expect(mail.subject).toContain('Partner GmbH');
    for (const body of [mail.text, mail.html]) {
      expect(body).toContain('Acme Vendor');
      expect(body).toContain('Partner GmbH');
      expect(body).toContain('https://portal.test/app/invitations/abc_DEF-123');
      expect(body).toContain('Ann');
      expect(body).toContain('within 14 days'); // X20: the link expires
    }
  });

  it('escapes every value put into the HTML body', () => {
    const mail = partnerInviteMail({
      ...input,
      firstName: '<b>Ann</b>',
      vendorName: 'Tom & "Jerry"',
      companyName: "<script>alert('x')</script>",
    });
    expect(mail.html).toContain('&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;');
    expect(mail.html).toContain('Tom &amp; &quot;Jerry&quot;');
    expect(mail.html).toContain('&lt;b&gt;Ann&lt;/b&gt;');
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).not.toContain('<b>');
    // the plain-text body is not HTML: values appear as sent
    expect(mail.text).toContain("<script>alert('x')</script>");
  });

  it('keeps the subject on one line whatever the names contain', () => {
    const mail = partnerInviteMail({ ...input, companyName: 'Evil\r\nBcc: victim@example.test' });
    expect(mail.subject).not.toMatch(/[\r\n]/);
  });
});

describe('escapeHtml / oneLine', () => {
  it('escapes the five HTML-significant characters', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
    expect(escapeHtml('plain ünïcode')).toBe('plain ünïcode');
  });

  it('turns control characters into a space', () => {
    expect(oneLine('a\r\nb\tc')).toBe('a b c');
  });
});
