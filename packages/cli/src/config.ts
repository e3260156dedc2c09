/**
 * The CLI's own files in the user's config directory: config.json (API origin and key, 0600)
 * and the resume checkpoints. $SENDBRIDGE_CONFIG_DIR, else $XDG_CONFIG_HOME/sendbridge, else
 * %APPDATA%\sendbridge on Windows, else ~/.config/sendbridge.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface CliConfig {
  api?: string;
  key?: string;
}

export function configDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SENDBRIDGE_CONFIG_DIR) return env.SENDBRIDGE_CONFIG_DIR;
  if (env.XDG_CONFIG_HOME) return path.join(env.XDG_CONFIG_HOME, 'sendbridge');
  if (process.platform === 'win32' && env.APPDATA) return path.join(env.APPDATA, 'sendbridge');
  return path.join(os.homedir(), '.config', 'sendbridge');
}

/** Writes a file only its owner can read, atomically (temp file + rename), in a 0700 directory. */
export function writePrivateFile(file: string, content: string): void {
  const dir = path.dirname(file);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, content, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}

export function readJsonFile(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

export function configFile(dir: string): string {
  return path.join(dir, 'config.json');
}

export function readConfig(dir: string): CliConfig {
  const raw = readJsonFile(configFile(dir));
  if (typeof raw !== 'object' || raw === null) return {};
  const c = raw as Record<string, unknown>;
  return {
    ...(typeof c.api === 'string' ? { api: c.api } : {}),
    ...(typeof c.key === 'string' ? { key: c.key } : {}),
  };
}

export function writeConfig(dir: string, config: CliConfig): void {
  writePrivateFile(configFile(dir), `${JSON.stringify(config, null, 2)}\n`);
}

export function removeConfig(dir: string): boolean {
  const file = configFile(dir);
  try {
    readFileSync(file);
  } catch {
    return false;
  }
  rmSync(file, { force: true });
  return true;
}
