/** An email as the application composes it; the sender address is added when it is sent (D36). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** What a MailSender hands to the mail server: From is MAIL_FROM, for the header and the envelope. */
export interface OutgoingMail extends MailMessage {
  from: string;
}
