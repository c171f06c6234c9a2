#!/usr/bin/env node
// The benchmark's ceiling: the least a NestJS 11 + Fastify application can do for an authenticated
// GET, measured on the same machine in the same run as the service. One route
// (GET /api/v1/vendors/ceiling/:id) behind a fastify onRequest hook that compares X-API-KEY with a
// Set in memory (401 JSON otherwise), returning a small JSON object: no database, no validation, no
// logging. Every service scenario is reported as a ratio of this server's req/s.
//
// Plain JavaScript, so it runs without a build step: the Nest decorators are applied with
// Reflect.decorate, as TypeScript's emitted code would. Started by bench.js as a child process:
//   CEILING_API_KEYS=key1,key2 [PORT=0] [HOST=127.0.0.1] node bench/ceiling-server.js
// prints {"port":N} on stdout once it listens.
'use strict';
require('reflect-metadata');
const { Controller, Get, Module, Param } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { FastifyAdapter } = require('@nestjs/platform-fastify');

const NAMESPACE = '/api/v1/vendors/';

class CeilingController {
  get(id) {
    return { success: true, message: null, data: { id: Number(id), name: 'ceiling' } };
  }
}
Reflect.decorate([Controller('api/v1/vendors/ceiling')], CeilingController);
Object.defineProperty(
  CeilingController.prototype,
  'get',
  Reflect.decorate(
    [Get(':id'), (target, key) => Param('id')(target, key, 0)],
    CeilingController.prototype,
    'get',
    Object.getOwnPropertyDescriptor(CeilingController.prototype, 'get'),
  ),
);

class CeilingModule {}
Reflect.decorate([Module({ controllers: [CeilingController] })], CeilingModule);

async function main() {
  const keys = new Set(
    (process.env.CEILING_API_KEYS || '')
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean),
  );
  if (keys.size === 0) throw new Error('CEILING_API_KEYS is empty');
  const app = await NestFactory.create(CeilingModule, new FastifyAdapter(), { logger: false });
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', async (request, reply) => {
      const key = request.headers['x-api-key'];
      if (!request.url.startsWith(NAMESPACE) || typeof key !== 'string' || !keys.has(key)) {
        return reply.code(401).send({ success: false, message: 'INVALID_API_KEY', data: null });
      }
    });
  await app.listen({ port: Number(process.env.PORT || 0), host: process.env.HOST || '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ port: app.getHttpServer().address().port })}\n`);
  const stop = () => app.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

main().catch((error) => {
  process.stderr.write(`ceiling server: ${error.stack || error}\n`);
  process.exit(1);
});
