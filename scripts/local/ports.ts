import net from 'node:net';

export const HOST = '127.0.0.1';

/** A port the OS says is free on loopback right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, HOST, () => {
      const addr = srv.address();
      srv.close(() => (addr && typeof addr === 'object' ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * `n` distinct ports, free on every interface right now: all probes are held open together, so
 * the OS cannot hand one port out twice (DynamoDB Local binds the wildcard address, so a port
 * free on loopback alone is not enough for it).
 */
export async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from(
      { length: n },
      () =>
        new Promise<net.Server>((resolve, reject) => {
          const srv = net.createServer();
          srv.unref();
          srv.on('error', reject);
          srv.listen(0, '0.0.0.0', () => resolve(srv));
        }),
    ),
  );
  const ports = servers.map((srv) => (srv.address() as net.AddressInfo).port);
  await Promise.all(servers.map((srv) => new Promise<void>((resolve) => srv.close(() => resolve()))));
  return ports;
}

function canListen(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

export class PortBusyError extends Error {
  constructor(
    readonly service: string,
    readonly port: number,
    readonly envName: string,
  ) {
    super(`Port ${port} for ${service} is busy: stop whatever uses it, or set ${envName}=<another port>.`);
    this.name = 'PortBusyError';
  }
}

/** Fails fast with a one-line hint instead of letting a child die with EADDRINUSE. */
export async function assertPortFree(service: string, port: number, envName: string, host = HOST): Promise<void> {
  if (!(await canListen(port, host))) throw new PortBusyError(service, port, envName);
}

/** Something already listens on the port (the local stack of `npm start`, for the scripts that use it). */
export async function isListening(port: number, host = HOST): Promise<boolean> {
  return !(await canListen(port, host));
}

export async function waitForPort(port: number, timeoutMs: number, host = HOST): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await new Promise<boolean>((resolve) => {
      const sock = net.connect(port, host);
      sock.once('connect', () => {
        sock.destroy();
        resolve(true);
      });
      sock.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing listened on ${host}:${port} within ${timeoutMs} ms`);
}

/** Reads a port from `name` in the environment, or `fallback`; refuses anything that is not a port. */
export function portFromEnv(name: string, fallback: number, source: NodeJS.ProcessEnv = process.env): number {
  const raw = source[name];
  const n = raw ? Number(raw) : fallback;
  if (!Number.isInteger(n) || n <= 0 || n > 65535) throw new Error(`${name}=${raw} is not a port number.`);
  return n;
}
