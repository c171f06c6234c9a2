import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';
import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { isDeliverableEmailAddress } from '../../src/shared/domain/email';
import { openApiDocument } from '../../src/shared/management/openapi';

/**
 * The contract test of the OpenAPI document (docs/api.md "The OpenAPI document"): every response an
 * e2e test app sends on a documented route is checked against the document's schema for that route
 * and status. A status the document does not list, a missing or extra field, a wrong type or a
 * null where none is allowed is a failure, and so is any response of the app, on any route, whose
 * Content-Type is not `application/json; charset=utf-8` (D38); the failures are thrown when the app
 * closes, so the test file that provoked them fails.
 *
 * Routes the document does not describe are left alone: unknown routes (404 of D11, answered before
 * any route matched) and the test-only probe controller.
 */
export class ContractRecorder {
  readonly failures: string[] = [];
  checked = 0;
  private readonly validators = new Map<string, ValidateFunction | null>();
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private document!: OpenAPIObject;

  constructor() {
    addFormats(this.ajv);
    // `format: email` is RFC 5321's ASCII syntax, checked by ajv-formats; the document says that letters
    // of any script are accepted too (docs/email-addresses.md), so such an address is checked by that rule.
    const ascii = this.ajv.formats.email as RegExp;
    this.ajv.addFormat('email', (value: string) =>
      !/[^\x20-\x7E]/.test(value) ? ascii.test(value) : isDeliverableEmailAddress(value),
    );
  }

  /** Hooks into the app's fastify instance; call before `init()` completes routing. */
  install(app: NestFastifyApplication): void {
    const fastify = app.getHttpAdapter().getInstance() as unknown as FastifyInstance;
    fastify.addHook('onSend', (request, reply, payload, done) => {
      // D38, on every response of the public port, documented route or not (401s of the key hook,
      // 404s of unknown routes, 413s, 429s included)
      const type = reply.getHeader('content-type');
      if (type !== 'application/json; charset=utf-8') {
        const path = request.url.split('?')[0];
        this.failures.push(
          `${request.method} ${path} → ${reply.statusCode}: Content-Type ${String(type)} (D38)`,
        );
      }
      const route = request.routeOptions?.url;
      if (route && request.method !== 'HEAD' && !route.includes('/probe')) {
        this.check(request.method, route, reply.statusCode, payload);
      }
      done(null, payload);
    });
  }

  /** Builds the document the service serves, once the app's routes exist. */
  load(app: NestFastifyApplication): void {
    this.document = strict(openApiDocument(app));
  }

  /** Checks one response (public so that a test can show what a failure looks like). */
  check(method: string, route: string, status: number, payload: unknown): void {
    if (!this.document) return; // responses sent while the app starts
    const path = route.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const operation = (this.document.paths[path] as Record<string, OperationLike> | undefined)?.[
      method.toLowerCase()
    ];
    const where = `${method} ${path} → ${status}`;
    if (!operation) {
      this.failures.push(`${where}: the route is served but not in the OpenAPI document`);
      return;
    }
    const validate = this.validatorFor(operation, method, path, status);
    if (validate === null) {
      this.failures.push(`${where}: the document does not list this status`);
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(typeof payload === 'string' ? payload : String(payload));
    } catch {
      this.failures.push(`${where}: the body is not JSON`);
      return;
    }
    this.checked += 1;
    if (!validate(body)) {
      const errors = this.ajv.errorsText(validate.errors, { dataVar: 'body' });
      this.failures.push(`${where}: ${errors}\n    ${JSON.stringify(body).slice(0, 400)}`);
    }
  }

  private validatorFor(
    operation: OperationLike,
    method: string,
    path: string,
    status: number,
  ): ValidateFunction | null {
    const key = `${method} ${path} ${status}`;
    if (!this.validators.has(key)) {
      const schema = operation.responses[String(status)]?.content?.['application/json']?.schema;
      this.validators.set(
        key,
        schema ? this.ajv.compile({ allOf: [schema], components: this.document.components }) : null,
      );
    }
    return this.validators.get(key)!;
  }

  /** Throws every failure at once (called when the test app closes). */
  assertClean(): void {
    if (this.failures.length > 0) {
      const unique = [...new Set(this.failures)];
      throw new Error(
        `responses that break the OpenAPI document (${unique.length}):\n  ${unique.join('\n  ')}`,
      );
    }
  }
}

interface OperationLike {
  responses: Record<string, { content?: Record<string, { schema?: object }> } | undefined>;
}

/**
 * A copy of the document in which no object may carry a property it does not declare: responses
 * carry exactly the fields of their resource (D4).
 */
function strict(document: OpenAPIObject): OpenAPIObject {
  const copy = JSON.parse(JSON.stringify(document)) as OpenAPIObject;
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (typeof node !== 'object' || node === null) return;
    const schema = node as { type?: string; properties?: object; additionalProperties?: unknown };
    if (schema.type === 'object' && schema.properties && schema.additionalProperties === undefined) {
      schema.additionalProperties = false;
    }
    Object.values(node).forEach(visit);
  };
  visit(copy.components);
  visit(copy.paths);
  return copy;
}
