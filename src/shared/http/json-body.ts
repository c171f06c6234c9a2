import { isUtf8 } from 'node:buffer';
import type { Readable } from 'node:stream';
import { type FastifyInstance, type FastifyRequest, errorCodes } from 'fastify';
import { wasTimedOut, whenBodyBroken } from './connection-limits';
import { BODY_LIMIT_BYTES, MAX_NESTING, nestingDepth } from '../domain/json-limits';
import { EdgeError } from './error-response';

// D6: the size and nesting limits, shared with the bulk import's rows
export { BODY_LIMIT_BYTES, MAX_NESTING } from '../domain/json-limits';

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

type Done = (err: Error | null, body?: unknown) => void;

/**
 * Reads the body as fastify's `parseAs` would (limit, declared length), except for a body that never
 * arrives in full: the client went away, or the connection was cut because the body took longer
 * than HTTP_REQUEST_TIMEOUT_MS (the client has had its 408 already). That is an EdgeError (408 or
 * 400), not an unexpected error: nobody is left to answer and nothing of ours failed.
 */
function readBody(
  request: FastifyRequest,
  payload: Readable,
  done: (err: Error | null, bytes?: Buffer) => void,
) {
  const declared = request.headers['content-length'];
  const contentLength = declared === undefined ? Number.NaN : Number(declared);
  if (contentLength > BODY_LIMIT_BYTES) return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
  const chunks: Buffer[] = [];
  let received = 0;
  let finished = false;
  let stopWatching = () => undefined as unknown;
  const stop = () => {
    finished = true;
    stopWatching();
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onEnd);
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > BODY_LIMIT_BYTES) {
      stop();
      done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      return;
    }
    chunks.push(chunk);
  };
  function onEnd(error?: Error) {
    stop();
    if (error) {
      const status = wasTimedOut(request.raw) ? 408 : 400;
      return done(new EdgeError(status, 'INVALID_REQUEST', [], 'request body not received'));
    }
    if (!Number.isNaN(contentLength) && received !== contentLength) {
      return done(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
    }
    done(null, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
  }
  // The HTTP parser found the rest of the body broken (a bad chunk): it will never end.
  stopWatching = whenBodyBroken(request.raw, () => {
    if (finished) return;
    stop();
    done(new EdgeError(400, 'INVALID_REQUEST', [], 'request body is not valid HTTP'));
  });
  if (finished) return;
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onEnd);
  payload.resume();
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
  fastify.addContentTypeParser('*', (request: FastifyRequest, payload: Readable, done: Done) => {
    readBody(request, payload, (error, bytes) => {
      if (error || bytes === undefined) return done(error);
      if (bytes.length === 0) return done(null, undefined);
      if (!isJsonMediaType(request.headers['content-type'])) {
        return done(null, new MalformedBody('Content-Type must be application/json'));
      }
      // JSON is UTF-8 (RFC 8259); decoding other bytes would store U+FFFD instead of what was sent (D14).
      if (!isUtf8(bytes)) return done(null, new MalformedBody('body is not UTF-8 text'));
      parseJson(request, bytes.toString('utf8'), (parseError: Error | null, value?: unknown) => {
        if (parseError) return done(null, new MalformedBody('body is not valid JSON'));
        if (nestingDepth(value) > MAX_NESTING) {
          return done(null, new MalformedBody(`body is nested more than ${MAX_NESTING} levels deep`));
        }
        done(null, value);
      });
    });
  });
}
