import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type UserConfig } from 'vite';

const frontendRoot = fileURLToPath(new URL('.', import.meta.url));
const repoRoot = fileURLToPath(new URL('..', import.meta.url));

export const DEFAULT_WEB_PORT = 5173;
export const DEFAULT_API_ORIGIN = 'http://127.0.0.1:3001';

export interface WebConfigOptions {
  readonly port: number;
  /** origin of the local gateway that serves `/api` (scripts/dev) */
  readonly apiOrigin: string;
}

/** The one Vite config, shared by `vite build`, `npm start` and the e2e tests (dev-server.ts). */
export function webConfig({ port, apiOrigin }: WebConfigOptions): UserConfig {
  return {
    root: frontendRoot,
    // `.env` lives at the repo root (architecture §4); only VITE_* names reach the bundle.
    envDir: repoRoot,
    plugins: [react()],
    resolve: {
      alias: {
        '@domain': fileURLToPath(new URL('../functions/domain', import.meta.url)),
        '@': fileURLToPath(new URL('./src', import.meta.url)),
      },
    },
    server: {
      host: '127.0.0.1',
      port,
      strictPort: true,
      // The app imports pure rules from functions/domain (conventions 4).
      fs: { allow: [repoRoot] },
      proxy: {
        // One origin, as behind CloudFront; xfwd passes the client address to the gateway.
        '/api': { target: apiOrigin, changeOrigin: false, xfwd: true },
      },
    },
    // Pre-bundle up front so a first visit never triggers a dependency re-optimisation reload.
    optimizeDeps: {
      include: ['react', 'react/jsx-dev-runtime', 'react-dom/client', 'react-router', 'i18next', 'react-i18next', 'i18next-browser-languagedetector', 'zod'],
    },
    preview: { host: '127.0.0.1', port, strictPort: true },
    build: { outDir: fileURLToPath(new URL('./dist', import.meta.url)), emptyOutDir: true, sourcemap: true, manifest: true },
  };
}

function portFromEnv(): number {
  const raw = process.env.WEB_PORT;
  if (raw === undefined || raw === '') return DEFAULT_WEB_PORT;
  const port = Number(raw);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`WEB_PORT is not a port: ${raw}`);
  return port;
}

export default defineConfig(() =>
  webConfig({ port: portFromEnv(), apiOrigin: process.env.API_ORIGIN || DEFAULT_API_ORIGIN }),
);
