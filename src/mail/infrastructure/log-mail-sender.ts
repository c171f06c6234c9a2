import { Logger } from '@nestjs/common';
import { MailSender } from '../application/mail-sender';
import { OutgoingMail } from '../application/mail-message';

/** D35: with SMTP_URL unset, emails are logged instead of sent (development). */
export class LogMailSender extends MailSender {
  private readonly logger = new Logger('Mail');

  async send(mail: OutgoingMail): Promise<void> {
    this.logger.log(
      { from: mail.from, to: mail.to, subject: mail.subject, text: mail.text },
      'email (SMTP_URL unset, not sent)',
    );
  }
}
