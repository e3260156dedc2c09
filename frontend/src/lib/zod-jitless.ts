/**
 * Imported first by main.tsx, before any schema exists. Zod compiles object parsers with
 * `new Function` after probing whether eval is allowed; under the app's CSP (no 'unsafe-eval')
 * the swallowed probe still fires a `securitypolicyviolation` report on every page. `jitless`
 * skips both the probe and the compiled parsers (docs/decisions/, "One CSP").
 *
 * Set on the object Zod keeps its config in (`globalThis.__zod_globalConfig`, which every copy
 * of zod shares and `z.config()` writes to) rather than through `z.config`, which would pull
 * zod's core into the entry chunk of every screen. The e2e CSP checks fail if this stops working.
 */
const holder = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
holder.__zod_globalConfig = { ...holder.__zod_globalConfig, jitless: true };

export {};
