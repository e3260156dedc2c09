/** What every command gets: streams, environment, the config dir and the resolved API. */
import { API_KEY_SCAN_PATTERN } from '../../../functions/domain/api-keys';
import { ApiClient } from './api';
import { CliError, EXIT } from './errors';
import { configDir, readConfig, type CliConfig } from './config';
import { resolveApiOrigin } from './origin';
import type { ParsedCommand } from './args';

export interface CliIo {
  stdin: NodeJS.ReadStream | NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export interface Context extends CliIo {
  json: boolean;
  dir: string;
  config: CliConfig;
  origin: string;
  /** the key: $SENDBRIDGE_API_KEY, else the saved login */
  key: string | undefined;
  client: ApiClient;
  /** prints to stdout (the result); secrets are masked whatever happens */
  print(line: string): void;
  /** prints to stderr (notes for people; nothing in --json mode) */
  info(line: string): void;
  printJson(value: unknown): void;
  requireKey(): ApiClient;
}

/** Masks anything that looks like an API key, the last line of defence against printing one. */
export function redact(text: string): string {
  return text.replace(API_KEY_SCAN_PATTERN, 'sbk_***');
}

export function createContext(io: CliIo, parsed: ParsedCommand): Context {
  const json = Boolean(parsed.values.json);
  const dir = configDir(io.env);
  const config = readConfig(dir);
  const origin = resolveApiOrigin(
    typeof parsed.values.api === 'string' ? parsed.values.api : undefined,
    io.env,
    config.api,
  );
  const key = io.env.SENDBRIDGE_API_KEY || config.key;
  const client = new ApiClient({ origin, ...(key ? { key } : {}) });
  return {
    ...io,
    json,
    dir,
    config,
    origin,
    key,
    client,
    print: (line) => io.stdout.write(`${redact(line)}\n`),
    info: (line) => {
      if (!json) io.stderr.write(`${redact(line)}\n`);
    },
    printJson: (value) => io.stdout.write(`${redact(JSON.stringify(value))}\n`),
    requireKey() {
      if (!key)
        throw new CliError(
          'not logged in: run "sendbridge login" or set SENDBRIDGE_API_KEY',
          EXIT.auth,
          'not_logged_in',
        );
      return client;
    },
  };
}
