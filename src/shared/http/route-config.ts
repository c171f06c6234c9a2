import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants';

/**
 * Adds entries to the fastify route config of a handler (what a hook reads as
 * `routeOptions.config`, or `route.config` in `onRoute`). Nest's `@RouteConfig` sets the config
 * whole, so two of the project's decorators that each add an entry (`@Success`, `@ValidInput`)
 * would erase each other with it; this merges, in whatever order decorators run.
 */
export function addRouteConfig(handler: object, entries: Record<string, unknown>): void {
  const current = Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) as
    Record<string, unknown> | undefined;
  Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...current, ...entries }, handler);
}

/** Method decorator form of `addRouteConfig`. */
export function AddRouteConfig(entries: Record<string, unknown>): MethodDecorator {
  return (_target, _key, descriptor) => {
    addRouteConfig(descriptor.value as object, entries);
    return descriptor;
  };
}
