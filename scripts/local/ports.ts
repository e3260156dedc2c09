import { readFileSync } from 'node:fs';
import net from 'node:net';

export const HOST = '127.0.0.1';

/**
 * Ports are picked below the OS's ephemeral range (Linux: 32768-60999): a port from that range,
 * free when probed, can be taken by any outgoing connection before its server binds it, and a
 * stack binds its ports seconds later (a JVM starting, the app built). Below it only another
 * probe could take it, and probes pick at random.
 */
function pickRange(): [number, number] {
  let low = 32768;
  try {
    low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/u)[0]) || low;
  } catch {
    // not Linux: the common default
  }
  return low > 12000 ? [10000, low - 1] : [low, 65535];
}

function listenOn(port: number, host: string): Promise<net.Server | null> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.unref();
    srv.once('error', () => resolve(null));
    srv.listen(port, host, () => resolve(srv));
  });
}

const close = (srv: net.Server) => new Promise<void>((resolve) => srv.close(() => resolve()));

/** Probes held open together, at random ports below the ephemeral range (the OS's choice if none is found). */
async function holdPorts(n: number, host: string): Promise<net.Server[]> {
  const [low, high] = pickRange();
  const held: net.Server[] = [];
  const taken = new Set<number>();
  for (let tries = 0; held.length < n && tries < 200; tries++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (taken.has(port)) continue;
    taken.add(port);
    const srv = await listenOn(port, host);
    if (srv) held.push(srv);
  }
  while (held.length < n) {
    const srv = await listenOn(0, host);
    if (!srv) throw new Error('no free port');
    held.push(srv);
  }
  return held;
}

/** A port free on loopback right now, below the ephemeral range. */
export async function freePort(): Promise<number> {
  const [srv] = await holdPorts(1, HOST);
  const port = (srv!.address() as net.AddressInfo).port;
  await close(srv!);
  return port;
}

/**
 * `n` distinct ports, free on every interface right now: all probes are held open together, so
 * none is handed out twice (DynamoDB Local binds the wildcard address, so a port free on
 * loopback alone is not enough for it).
 */
export async function freePorts(n: number): Promise<number[]> {
  const servers = await holdPorts(n, '0.0.0.0');
  const ports = servers.map((srv) => (srv.address() as net.AddressInfo).port);
  await Promise.all(servers.map(close));
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
