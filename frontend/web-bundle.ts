import { build } from 'vite';
import { DEFAULT_API_ORIGIN, DEFAULT_WEB_PORT, webConfig } from './vite.config';

/**
 * `vite build` of the app with the project's one config, into `outDir` (manifest included),
 * as `npm run build:web` makes it: production mode even when the caller runs with another
 * NODE_ENV (vitest sets 'test', which would otherwise bundle React's development build).
 */
export async function buildWeb(outDir: string): Promise<void> {
  const config = webConfig({ port: DEFAULT_WEB_PORT, apiOrigin: DEFAULT_API_ORIGIN });
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({
      ...config,
      mode: 'production',
      configFile: false,
      logLevel: 'warn',
      build: { ...config.build, outDir, emptyOutDir: true, manifest: true },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}
