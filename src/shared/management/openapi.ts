import type { Server } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { AppConfig } from '../../config/app-config';
import { serviceVersion } from '../../config/project-root';
import type { ReferenceObject, SchemaObject } from '@nestjs/swagger';

const DESCRIPTION = `The API a software vendor uses to invite its partner companies, add people to them, and
receive, judge and convert the leads those partners bring.

Every operation needs the vendor's API key in the \`X-API-KEY\` header. Every successful answer is 200 with
the success envelope \`{success, message, data, timestamp}\`; errors use the standard error shape
\`{message, status, success: false, errors, timestamp}\`, except authentication refusals (401), which use
\`{success: false, message, data: null, timestamp}\`. Datetimes are ISO 8601 UTC with milliseconds and ids
are JSON integers below 2^53. The rules cited as D1, D2, ... are stated in the project's docs/rules.md.`;

/** Bind addresses that mean "every interface": a client reaches such a server on localhost. */
const EVERY_INTERFACE = new Set(['0.0.0.0', '::', '']);

/**
 * Where the public API of this application is: HOST (localhost for a wildcard address) and the port
 * it listens on, or PORT before it listens (docs/api-reference.md, "servers").
 */
export function publicApiUrl(app: INestApplication): string {
  const config = app.get(AppConfig);
  const address = (app.getHttpServer() as Server).address();
  const port = typeof address === 'object' && address !== null ? address.port : config.port;
  const host = EVERY_INTERFACE.has(config.host) ? 'localhost' : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/**
 * The OpenAPI description of the public API, built from the controllers, their `@Operation` and
 * `@ValidInput` declarations and the DTO and response classes. Served on the management port at
 * /openapi.json and committed as docs/openapi.json. Its `servers` entry is this application's public
 * address and its `info.version` the service's version (package.json).
 */
export function openApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Partner relationship management API')
    .setDescription(DESCRIPTION)
    .setVersion(serviceVersion())
    .addServer(publicApiUrl(app), 'the server that serves this document (its HOST and PORT)')
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'X-API-KEY',
        description: 'a key made with `node dist/cli.js vendors:create` or `api-keys:create`',
      },
      'apiKey',
    )
    .addSecurityRequirements('apiKey')
    .addTag('Partners', 'Partner companies and their users; inviting them sends emails.')
    .addTag('Leads', 'Leads partners bring, their approval state machine and their history.')
    .addTag('Vendor', 'The caller’s vendor’s own settings: its lead sources and statuses.')
    .build();
  const document = SwaggerModule.createDocument(app, config, {
    operationIdFactory: (_controller, method) => method,
  });
  addResponseExamples(document);
  return document;
}

type Schema = SchemaObject | ReferenceObject;

function resolve(schema: Schema, document: OpenAPIObject): SchemaObject | undefined {
  if ('$ref' in schema) {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return document.components!.schemas![name] as SchemaObject;
  }
  return schema;
}

/** An example value built from a schema: the field's own example, else its default, enum or type. */
function exampleOf(schema: Schema, document: OpenAPIObject, depth = 0): unknown {
  const s = resolve(schema, document);
  if (!s) throw new Error(`the OpenAPI document refers to a schema it lacks: ${JSON.stringify(schema)}`);
  if (s.example !== undefined) return s.example;
  if (s.default !== undefined) return s.default;
  if (s.enum && s.enum.length > 0) return s.enum[0];
  if (depth > 5) return null;
  switch (s.type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [name, property] of Object.entries(s.properties ?? {})) {
        out[name] = exampleOf(property, document, depth + 1);
      }
      return out;
    }
    case 'array':
      return s.items ? [exampleOf(s.items, document, depth + 1)] : [];
    case 'integer':
    case 'number':
      return s.minimum ?? 0;
    case 'boolean':
      return true;
    case 'string':
      if (s.format === 'date-time') return '2026-01-31T09:30:00.000Z';
      if (s.format === 'email') return 'someone@example.com';
      return s.nullable ? null : 'text';
    default:
      return null;
  }
}

/** Every success response gets an example built from its schema (errors have theirs already). */
function addResponseExamples(document: OpenAPIObject): void {
  for (const path of Object.values(document.paths)) {
    for (const operation of Object.values(path)) {
      if (typeof operation !== 'object' || operation === null || !('responses' in operation)) continue;
      const ok = (
        operation as {
          responses: Record<
            string,
            { content?: Record<string, { schema?: Schema; example?: unknown; examples?: unknown }> }
          >;
        }
      ).responses['200'];
      const media = ok?.content?.['application/json'];
      if (media?.schema && media.example === undefined && media.examples === undefined) {
        media.example = exampleOf(media.schema, document);
      }
    }
  }
}
