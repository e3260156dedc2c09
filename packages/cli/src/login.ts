/** `sendbridge login` and `logout`: the key is checked against the API, then kept in config.json (0600). */
import { parseApiKey } from '../../../functions/domain/api-keys';
import { ApiClient } from './api';
import { ApiError, CliError, EXIT, UsageError } from './errors';
import { configFile, removeConfig, writeConfig } from './config';
import type { Context } from './context';

/**
 * Reads one line from a TTY without echoing it (raw mode), or from piped stdin. Trimmed, but for
 * a passphrase (`trim: false`), whose spaces are part of it.
 */
export async function readSecret(ctx: Context, prompt: string, opts: { trim?: boolean } = {}): Promise<string> {
  const tidy = (line: string) => (opts.trim === false ? line : line.trim());
  const stdin = ctx.stdin as NodeJS.ReadStream;
  if (stdin.isTTY && typeof stdin.setRawMode === 'function') {
    ctx.stderr.write(prompt);
    return new Promise((resolve, reject) => {
      let value = '';
      stdin.setRawMode(true);
      stdin.resume();
      stdin.setEncoding('utf8');
      const done = (err?: Error) => {
        stdin.setRawMode(false);
        stdin.pause();
        stdin.off('data', onData);
        ctx.stderr.write('\n');
        if (err) reject(err);
        else resolve(tidy(value));
      };
      const onData = (chunk: string) => {
        for (const ch of chunk) {
          if (ch === '\r' || ch === '\n' || ch === '\u0004') return done();
          if (ch === '\u0003') return done(new CliError('cancelled', EXIT.interrupted, 'cancelled'));
          if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
          else value += ch;
        }
      };
      stdin.on('data', onData);
    });
  }
  let data = '';
  for await (const chunk of ctx.stdin) data += chunk.toString();
  return tidy(data.split(/\r?\n/u)[0]!);
}

export async function login(ctx: Context, values: Record<string, unknown>): Promise<number> {
  const key =
    typeof values.key === 'string'
      ? values.key
      : ctx.env.SENDBRIDGE_API_KEY || (await readSecret(ctx, 'API key (made in the dashboard, Account > API keys): '));
  if (!key) throw new UsageError('login: no key given');
  const parsed = parseApiKey(key);
  if (!parsed)
    throw new CliError('that is not a SendBridge API key (they look like sbk_live_...)', EXIT.auth, 'invalid_api_key');
  const client = new ApiClient({ origin: ctx.origin, key });
  try {
    await client.call('/v1/transfers');
  } catch (err) {
    // a valid key without the transfers:read scope is still a valid key
    if (!(err instanceof ApiError && err.code === 'key_scope_missing')) throw err;
  }
  writeConfig(ctx.dir, { api: ctx.origin, key });
  if (ctx.json) ctx.printJson({ loggedIn: true, api: ctx.origin, keyId: parsed.id, config: configFile(ctx.dir) });
  else ctx.print(`Logged in to ${ctx.origin}. The key is saved in ${configFile(ctx.dir)} (readable only by you).`);
  return EXIT.ok;
}

export async function logout(ctx: Context): Promise<number> {
  const removed = removeConfig(ctx.dir);
  if (ctx.json) ctx.printJson({ loggedOut: removed });
  else
    ctx.print(
      removed
        ? 'Logged out: the saved key was removed from this computer (it still works until you revoke it in the dashboard).'
        : 'Not logged in.',
    );
  return EXIT.ok;
}
