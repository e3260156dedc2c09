/**
 * moto_server (Python's moto 5.2, installed on these machines) on a free loopback port, for the
 * S3 conformance tests: it enforces the multipart rules s3rver does not. Memory only; each test
 * file starts its own and stops it afterwards. A missing moto_server is an error, never a skip.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort, HOST } from '../../scripts/local/ports';

export interface Moto {
  readonly url: string;
  stop(): Promise<void>;
}

export async function startMoto(timeoutMs = 60_000): Promise<Moto> {
  const port = await freePort();
  const child: ChildProcess = spawn('moto_server', ['-H', HOST, '-p', String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => {
    stderr = (stderr + d.toString()).slice(-4000);
  });
  const failed = new Promise<never>((_, reject) => {
    child.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'ENOENT'
          ? new Error(
              "moto_server is not installed (pip install 'moto[server]==5.2.*'): the S3 conformance tests need it",
            )
          : err,
      ),
    );
    child.once('exit', (code) => reject(new Error(`moto_server exited with ${code} before it was ready:\n${stderr}`)));
  });
  const url = `http://${HOST}:${port}`;
  const ready = (async () => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      try {
        if ((await fetch(`${url}/moto-api/`)).ok) return;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`moto_server did not answer on ${url} within ${timeoutMs} ms:\n${stderr}`);
  })();
  try {
    await Promise.race([ready, failed]);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  failed.catch(() => {});
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
