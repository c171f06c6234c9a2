import { Writable } from 'node:stream';
import { QueryFailedError } from 'typeorm';
import { AppLogger, createPino, logFormatFor, redactMessage, safeError } from './logging.module';

function capture(level = 'trace', format?: 'pretty' | 'json'): { logger: AppLogger; text: () => string } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { logger: new AppLogger(createPino(level, stream, format)), text: () => text };
}

describe('logs without personal data', () => {
  const hash = 'a3f1'.repeat(16);

  it('logs a TypeORM error without its statement or parameters', () => {
    const driverError = Object.assign(new Error('SQLITE_CONSTRAINT: NOT NULL constraint failed'), {
      code: 'SQLITE_CONSTRAINT_NOTNULL',
    });
    const error = new QueryFailedError(
      'INSERT INTO partner_users (first_name, email_address) VALUES (?, ?)',
      ['Nancy Davolio', 'nancy@northwind.example', hash],
      driverError,
    );
    const { logger, text } = capture();
    logger.error({ reqId: 'r1', err: error }, 'unexpected error');
    expect(text()).not.toMatch(/Nancy|nancy@northwind|a3f1a3f1|INSERT INTO/);
    expect(JSON.parse(text()).err).toMatchObject({
      type: 'QueryFailedError',
      code: 'SQLITE_CONSTRAINT_NOTNULL',
      message: 'SQLITE_CONSTRAINT: NOT NULL constraint failed',
    });
  });

  it("logs a mysql2 error without its sql, and without the value MySQL's message quotes", () => {
    const error = Object.assign(
      new Error("Duplicate entry 'ada@example.com-7' for key 'ux_leads_partner_email'"),
      {
        code: 'ER_DUP_ENTRY',
        errno: 1062,
        sqlState: '23000',
        sqlMessage: "Duplicate entry 'ada@example.com-7' for key 'ux_leads_partner_email'",
        sql: "INSERT INTO leads (email_address) VALUES ('ada@example.com')",
      },
    );
    const serialized = safeError(error);
    expect(serialized).toEqual({
      type: 'Error',
      message: "Duplicate entry '?' for key 'ux_leads_partner_email'",
      code: 'ER_DUP_ENTRY',
      errno: 1062,
      sqlState: '23000',
      stack: expect.stringMatching(/^Error: Duplicate entry '\?' for key 'ux_leads_partner_email'\n\s+at /),
    });
    const { logger, text } = capture();
    logger.error(error);
    expect(text()).not.toContain('ada@example.com');
  });

  it.each([
    [
      "Can't send mail - all recipients were rejected: 550 5.1.1 <bob@partner.example>: Recipient address rejected",
      "Can't send mail - all recipients were rejected: 550 5.1.1 <<address>>: Recipient address rejected",
    ],
    [
      "Incorrect string value: '\\xF0\\x9F' for column 'first_name' at row 1",
      "Incorrect string value: '?' for column 'first_name' at row 1",
    ],
    ['connect ECONNREFUSED 127.0.0.1:25', 'connect ECONNREFUSED 127.0.0.1:25'],
    [
      'at Foo (/app/node_modules/@nestjs/core/router.js:1:2)',
      'at Foo (/app/node_modules/@nestjs/core/router.js:1:2)',
    ],
  ])('redacts %j', (message, redacted) => {
    expect(redactMessage(message)).toBe(redacted);
  });

  it("redacts Nest's (message, stack) error lines and plain messages", () => {
    const { logger, text } = capture();
    logger.error('failed for carla@example.com', 'Error: x\n    at y (carla@example.com)', 'Ctx');
    logger.warn("value 'secret' refused");
    expect(text()).not.toMatch(/carla@example\.com|secret/);
  });
});

describe("Nest's start-up lines", () => {
  it('drops "Nest application successfully started": Nest writes it before the port is bound', () => {
    const { logger, text } = capture();
    logger.log('Nest application successfully started', 'NestApplication');
    expect(text()).toBe('');
    logger.log('public API listening on http://127.0.0.1:3000', 'Server');
    expect(JSON.parse(text())).toMatchObject({
      context: 'Server',
      msg: expect.stringContaining('listening'),
    });
  });
});

describe("Nest's route dump", () => {
  it('is logged at debug, not info: LOG_LEVEL=debug shows it, the default does not', () => {
    const info = capture('info');
    info.logger.log('PartnersController {/api/v1/vendors/partners}:', 'RoutesResolver');
    info.logger.log('Mapped {/api/v1/vendors/partners, POST} route', 'RouterExplorer');
    expect(info.text()).toBe('');
    const debug = capture('debug');
    debug.logger.log('Mapped {/api/v1/vendors/partners, POST} route', 'RouterExplorer');
    expect(JSON.parse(debug.text())).toMatchObject({ level: 20, context: 'RouterExplorer' });
  });
});

describe('LOG_FORMAT', () => {
  it('is pretty on a terminal and JSON otherwise unless set', () => {
    expect(logFormatFor(undefined, true)).toBe('pretty');
    expect(logFormatFor(undefined, false)).toBe('json');
    expect(logFormatFor('json', true)).toBe('json');
    expect(logFormatFor('pretty', false)).toBe('pretty');
  });

  it('pretty: one line per request with method, path, status and time, no JSON', () => {
    const { logger, text } = capture('info', 'pretty');
    logger.pino.info(
      {
        reqId: 'req-1',
        method: 'GET',
        path: '/api/v1/vendors/partners',
        route: '/api/v1/vendors/partners',
        status: 200,
        ms: 3.25,
        vendorId: 7,
      },
      'request completed',
    );
    expect(text()).toMatch(
      /^\[\d{2}:\d{2}:\d{2}\.\d{3}\] INFO: GET \/api\/v1\/vendors\/partners 200 3\.25 ms \(vendor 7\)\n$/,
    );
  });

  it('pretty: one line per message with its context and other fields; keys still redacted', () => {
    const { logger, text } = capture('info', 'pretty');
    logger.log({ status: 'PENDING', apiKey: 'prm_secret' }, 'outbox row', 'Mail');
    const lines = text().split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/INFO: \[Mail\] outbox row \{"status":"PENDING","apiKey":"\[Redacted\]"\}$/);
    expect(text()).not.toContain('prm_secret');
  });
});
