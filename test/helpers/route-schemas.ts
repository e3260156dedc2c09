/**
 * The request schemas of every route of functions/routes.ts, read from the handler modules
 * themselves (`httpRoute` keeps them on the handler as `schemas`), so tests that iterate the
 * route table (IDOR matrix, fuzzing) see exactly what each route parses.
 */
import { fileURLToPath } from 'node:url';
import type * as z from 'zod/mini';
import type { Schemas } from '../../functions/lib/http';
import { routes, type RouteDef } from '../../functions/routes';

export interface RouteSchemas extends Schemas {
  /** the body's object shape, when the body schema is a plain object */
  readonly bodyShape?: Readonly<Record<string, z.core.$ZodType>>;
}

const loaded = new Map<string, RouteSchemas>();
const FUNCTIONS_DIR = fileURLToPath(new URL('../../functions/', import.meta.url));

/** Imports every route's handler module once; throws for a handler not built with `httpRoute`. */
export async function loadRouteSchemas(table: readonly RouteDef[] = routes): Promise<void> {
  for (const route of table) {
    if (loaded.has(route.handler)) continue;
    const mod = (await import(/* @vite-ignore */ `${FUNCTIONS_DIR}${route.handler}.ts`)) as {
      handler?: { schemas?: Schemas };
    };
    const schemas = mod.handler?.schemas;
    if (!schemas) throw new Error(`functions/${route.handler}.ts: handler has no schemas (not built with httpRoute?)`);
    const body = schemas.body;
    // read from the def (zod/mini and classic share it), not from classic-only accessors
    const def = body?._zod.def;
    loaded.set(route.handler, {
      ...schemas,
      ...(def?.type === 'object' ? { bodyShape: (def as z.core.$ZodObjectDef).shape } : {}),
    });
  }
}

export function routeSchemas(route: Pick<RouteDef, 'handler'>): RouteSchemas {
  const found = loaded.get(route.handler);
  if (!found) throw new Error(`schemas of ${route.handler} not loaded: await loadRouteSchemas() first`);
  return found;
}
