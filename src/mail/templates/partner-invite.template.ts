import { MailMessage } from '../application/mail-message';
import { escapeHtml, oneLine } from './html';

export interface PartnerInviteMailInput {
  to: string;
  firstName: string;
  vendorName: string;
  companyName: string;
  /** `${PORTAL_URL}/invitations/<token>` */
  acceptUrl: string;
  /** how long the link can be accepted (X20: 14 days) */
  validForDays: number;
}

/** The invite email of D36: names the vendor and the partner company, carries the personal accept link. */
export function partnerInviteMail(input: PartnerInviteMailInput): MailMessage {
  const { firstName, vendorName, companyName, acceptUrl, validForDays } = input;
  const subject = oneLine(`${vendorName} invites you to its partner portal (${companyName})`);
  const text = [
    `Hello ${firstName},`,
    '',
    `${vendorName} has invited you, as a member of ${companyName}, to its partner portal.`,
    '',
    `Accept the invitation here within ${validForDays} days (the link is personal and works once):`,
    acceptUrl,
    '',
    'If you did not expect this email, you can ignore it.',
    '',
  ].join('\n');
  const h = escapeHtml;
  const html = [
    '<!DOCTYPE html>',
    '<html><body>',
    `<p>Hello ${h(firstName)},</p>`,
    `<p>${h(vendorName)} has invited you, as a member of ${h(companyName)}, to its partner portal.</p>`,
    `<p><a href="${h(acceptUrl)}">Accept the invitation</a> within ${validForDays} days (the link is personal and works once):<br>${h(acceptUrl)}</p>`,
    '<p>If you did not expect this email, you can ignore it.</p>',
    '</body></html>',
    '',
  ].join('\n');
  return { to: input.to, subject, text, html };
}
