import { OutgoingMail } from './mail-message';

/** Port: hands one email to the mail system. Resolves once it is accepted, rejects otherwise. */
export abstract class MailSender {
  abstract send(mail: OutgoingMail): Promise<void>;
}
