import { createServer } from 'vite';
import { webConfig } from './vite.config';

export interface WebDevServer {
  /** e.g. http://127.0.0.1:5173 (no trailing slash) */
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the Vite dev server for the app; used by scripts/dev.ts and the e2e tests. */
export async function startWebDevServer({ port, apiOrigin }: { port: number; apiOrigin: string }): Promise<WebDevServer> {
  const server = await createServer({ ...webConfig({ port, apiOrigin }), configFile: false, clearScreen: false, logLevel: 'warn' });
  await server.listen();
  const url = `http://127.0.0.1:${port}`;
  return { url, close: () => server.close() };
}
