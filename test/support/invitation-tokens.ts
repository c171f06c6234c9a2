import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DataSource } from 'typeorm';

/** The accept link of an invite email, with PORTAL_URL of testConfig(). */
const LINK = /http:\/\/portal\.test\/app\/invitations\/([A-Za-z0-9_-]{43})/;

/**
 * The tokens of the invite links queued for this address, oldest first, read from the outbox (its
 * bodies hold the link until the message is sent, so the dispatcher must be off: autoStart false).
 */
export async function inviteTokens(app: NestFastifyApplication, recipient: string): Promise<string[]> {
  const rows: { text_body: string | null }[] = await app
    .get(DataSource)
    .query('SELECT text_body FROM mail_outbox WHERE LOWER(recipient) = ? ORDER BY id', [
      recipient.toLowerCase(),
    ]);
  return rows.map((row) => {
    const token = LINK.exec(row.text_body ?? '')?.[1];
    if (!token) throw new Error(`no accept link in the email to ${recipient}`);
    return token;
  });
}

/** The one token queued for this address (insists there is exactly one). */
export async function inviteToken(app: NestFastifyApplication, recipient: string): Promise<string> {
  const tokens = await inviteTokens(app, recipient);
  if (tokens.length !== 1) throw new Error(`expected one invite to ${recipient}, found ${tokens.length}`);
  return tokens[0]!;
}
