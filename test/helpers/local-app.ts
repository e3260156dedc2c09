import { startLocalApp, type LocalApp } from '../../scripts/local/app';

/** Starts the emulators and the local gateway on free ports, with ephemeral data. */
export async function startTestApp(appOrigin = 'http://127.0.0.1:5999'): Promise<LocalApp> {
  return startLocalApp({ ports: 'free', appOrigins: [appOrigin], appOrigin, apiPort: 0 });
}

export async function api(app: LocalApp, path: string, init: RequestInit = {}) {
  const res = await fetch(`${app.apiOrigin}/api${path}`, init);
  const text = await res.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json: json as Record<string, any> };
}
