import type { Context } from 'aws-lambda';

/**
 * The dispatcher of a grouped Lambda function (functions/routes.ts `FUNCTION_GROUPS`): it picks
 * the route's handler by the event's `routeKey`, asking its loader for the module once. The
 * generated Lambda entry (lib/lambda-bundles.ts) and the local gateway build it from the same
 * route table: in the bundle the loaders return statically imported modules (smaller and
 * faster to start, measured); locally they import the TypeScript module on first use.
 */
export type LambdaHandler = (event: never, context: Context) => Promise<unknown>;

/** Loads a route's handler module (`export const handler`). */
export type RouteModuleLoader = () => Promise<{ readonly handler?: unknown }>;

interface RoutedEvent {
  readonly routeKey?: string;
}

const NOT_ROUTED = {
  statusCode: 404,
  headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
  body: JSON.stringify({ error: { code: 'route_not_found', message: 'Not found' } }),
} as const;

export function createDispatcher(loaders: Readonly<Record<string, RouteModuleLoader>>) {
  const handlers = new Map<string, Promise<LambdaHandler>>();

  function handlerFor(routeKey: string, load: RouteModuleLoader): Promise<LambdaHandler> {
    let pending = handlers.get(routeKey);
    if (!pending) {
      pending = load().then((mod) => {
        if (typeof mod.handler !== 'function') throw new Error(`the module of ${routeKey} does not export handler`);
        return mod.handler as LambdaHandler;
      });
      // A failed import is retried by the next request rather than cached for the container's life.
      pending.catch(() => handlers.delete(routeKey));
      handlers.set(routeKey, pending);
    }
    return pending;
  }

  return async function dispatch(event: RoutedEvent, context: Context): Promise<unknown> {
    const key = event.routeKey;
    const load = key !== undefined && Object.hasOwn(loaders, key) ? loaders[key] : undefined;
    // API Gateway only sends the routes it has; anything else is a misrouted or forged invoke.
    if (!key || !load) return NOT_ROUTED;
    const handler = await handlerFor(key, load);
    return handler(event as never, context);
  };
}
