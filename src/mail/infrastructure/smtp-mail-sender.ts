import { createTransport, Transporter } from 'nodemailer';
import { MailSender } from '../application/mail-sender';
import { OutgoingMail } from '../application/mail-message';

/**
 * Sends through the SMTP server of SMTP_URL. Timeouts are short compared with the dispatcher's lease,
 * so one send never outlives the lease on its message.
 */
export class SmtpMailSender extends MailSender {
  private readonly transport: Transporter;

  constructor(smtpUrl: string) {
    super();
    this.transport = createTransport({
      url: smtpUrl,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    } as Parameters<typeof createTransport>[0]);
  }

  async send(mail: OutgoingMail): Promise<void> {
    // D36: MAIL_FROM is both the From header and the envelope sender.
    await this.transport.sendMail({
      from: mail.from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      envelope: { from: mail.from, to: [mail.to] },
    });
  }
}
