/** What the CLI benches share: their payload files and the shape of one timed round. */
import { appendFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';

export const MiB = 1024 ** 2;

export interface Round {
  seconds: number;
  mibPerSecond: number;
}

/** A file of random bytes (incompressible, as real payloads mostly are), written 16 MiB at a time. */
export function writeTempFile(dir: string, name: string, bytes: number): string {
  const file = path.join(dir, name);
  writeFileSync(file, '');
  for (let written = 0; written < bytes; written += 16 * MiB)
    appendFileSync(file, randomBytes(Math.min(16 * MiB, bytes - written)));
  return file;
}
