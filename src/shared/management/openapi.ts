import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';

/** The OpenAPI description served on the management port at /openapi.json. */
export function openApiDocument(app: INestApplication): object {
  const config = new DocumentBuilder()
    .setTitle('Partner relationship management API')
    .setDescription(
      'Partners, partner users and leads of a vendor. Every operation needs the X-API-KEY header.',
    )
    .setVersion('1')
    .addApiKey({ type: 'apiKey', in: 'header', name: 'X-API-KEY' }, 'api-key')
    .addSecurityRequirements('api-key')
    .build();
  return SwaggerModule.createDocument(app, config);
}
