import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
const root = process.cwd();
const { routes } = await import(pathToFileURL(join(root, 'functions/routes.ts')).href);
const { loadRouteSchemas, routeSchemas } = await import(pathToFileURL(join(root, 'test/helpers/route-schemas.ts')).href);
await loadRouteSchemas();
console.log(routes.map((r: any) => `${r.method} ${r.path}: ${Object.keys(routeSchemas(r).bodyShape ?? {}).join(',') || '-'}`).join('\n'));
