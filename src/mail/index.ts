/**
 * The mail module's public face: all another module may import from it (docs/architecture.md,
 * "Between modules"; `npm run lint` refuses a deep import).
 */
export { MailModule } from './mail.module';
export { mailSchema } from './infrastructure/mail.schema';
export { Outbox } from './application/outbox';
export { MailSender } from './application/mail-sender';
export type { MailMessage } from './application/mail-message';
export { partnerInviteMail } from './templates/partner-invite.template';
export type { PartnerInviteMailInput } from './templates/partner-invite.template';
