import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Body size limit (D6): 1 MiB; fastify answers 413 while reading a larger body. */
export const BODY_LIMIT_BYTES = 1_048_576;

/**
 * A body that was received but cannot be used (not JSON, or not sent as application/json). It is
 * kept as a value instead of failing inside fastify, so that the order of checks of D37 holds
 * (authentication first, then size, then syntax) and so that operations that ignore their body
 * (approve, archive: D38) are not refused for it.
 */
export class MalformedBody {
  constructor(readonly reason: string) {}
}

function isJsonMediaType(header: string | undefined): boolean {
  if (!header) return false;
  const mediaType = header.split(';')[0]!.trim().toLowerCase();
  return mediaType === 'application/json';
}

/**
 * Replaces fastify's body parsers with one that accepts any content type and leaves the judgement
 * to the route: an empty body is `undefined`, a JSON body is its parsed value, anything else is a
 * MalformedBody. JSON is parsed with fastify's own parser (prototype-poisoning keys removed).
 */
export function installJsonBodyParser(fastify: FastifyInstance): void {
  // `__proto__` / `constructor.prototype` keys are removed while parsing: ignored like any unknown
  // field (D5), and unable to reach an object's prototype.
  const parseJson = fastify.getDefaultJsonParser('remove', 'remove');
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser(
    '*',
    { parseAs: 'string', bodyLimit: BODY_LIMIT_BYTES },
    (request: FastifyRequest, body: string | Buffer, done: (err: Error | null, body?: unknown) => void) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.length === 0) return done(null, undefined);
      if (!isJsonMediaType(request.headers['content-type'])) {
        return done(null, new MalformedBody('Content-Type must be application/json'));
      }
      parseJson(request, text, (error: Error | null, value?: unknown) => {
        done(null, error ? new MalformedBody('body is not valid JSON') : value);
      });
    },
  );
}
