/**
 * `sendbridge`: the command line of SendBridge's public API v1 (docs/cli.md). main() returns
 * the exit code; it never throws.
 */
import { parseCommandLine, type ParsedCommand } from './args';
import { CliError, EXIT, describeError } from './errors';
import { createContext, redact, type CliIo } from './context';
import { login, logout } from './login';
import { send } from './send';
import { get, ls, requestCreate } from './transfers';
import { receiptVerify } from './receipt';
import { LIST_FILTERS } from '../../../functions/domain/dashboard-api';

export const VERSION = '0.1.0';

export const HELP = `sendbridge ${VERSION}: send files and folders with SendBridge from a terminal

Usage:
  sendbridge login [--key sbk_...]          check an API key and save it (0600) in your config dir
  sendbridge logout                          forget the saved key
  sendbridge send <paths...> --to a@b.c [--to ...] | --link
                  [--message "..."] [--expiry 1w] [--password p] [--sender-name n]
                  [--parallel 4] [--restart] [--e2e [--passphrase-file path]]
                                             upload files and folders (resumable: run it again
                                             after Ctrl-C or a dropped connection)
                  --e2e: end-to-end encrypted (needs an account's key; files are not malware
                  scanned). With --link the key is put after # in the printed link; with --to
                  (or --passphrase-file) recipients need a passphrase you tell them yourself
  sendbridge ls [--filter ${LIST_FILTERS.join('|')}] [--skip n] [--search text]
  sendbridge get <link-or-id> [-o dir] [--zip] [--password p] [--passphrase-file path]
                                             download every file (or the ZIP), sizes verified;
                                             an encrypted transfer is decrypted here: give the
                                             whole link with its #k=... in quotes, or the
                                             passphrase (no --zip for those)
  sendbridge request create --title "..." [--message "..."]
  sendbridge receipt verify <file> [--keys jwks.json]
                                             check a signed delivery receipt (JSON) with the
                                             published keys (fetched from --api), or offline
                                             with a saved copy of them; says what it proves

Options for every command:
  --api <origin>   the deployment (default: $SENDBRIDGE_API, else the saved login's, else
                   http://127.0.0.1:$API_PORT, the local stack of npm start). https only,
                   except http to a loopback host
  --json           machine-readable output (send: one JSON event per line)
  -h, --help

Environment: SENDBRIDGE_API_KEY (a key instead of the saved login), SENDBRIDGE_API,
SENDBRIDGE_CONFIG_DIR (default $XDG_CONFIG_HOME/sendbridge or ~/.config/sendbridge),
SENDBRIDGE_PASSPHRASE (an end-to-end passphrase).

Passphrases: from --passphrase-file (its first line), $SENDBRIDGE_PASSPHRASE, or a prompt that
does not echo. Never as an argument: every user of this machine can read a process's arguments
(ps, /proc) and shells keep them in their history. An interrupted encrypted send keeps its key
and file salts in the resume checkpoint (uploads.json, mode 0600) until it finishes.

Exit codes: 0 ok, 1 usage or bad input, 2 authentication (no, invalid, revoked key or scope
missing; a transfer's password missing or wrong), 3 not found or expired, 4 network, 5 server,
6 receipt refused (changed, forged or not a receipt), 130 interrupted (resumable).
`;

async function dispatch(io: CliIo, parsed: ParsedCommand): Promise<number> {
  if (parsed.command === 'help') {
    io.stdout.write(HELP);
    return EXIT.ok;
  }
  if (parsed.command === 'version') {
    io.stdout.write(`${VERSION}\n`);
    return EXIT.ok;
  }
  const ctx = createContext(io, parsed);
  const v = parsed.values as Record<string, unknown>;
  switch (parsed.command) {
    case 'login':
      return login(ctx, v);
    case 'logout':
      return logout(ctx);
    case 'send':
      return send(ctx, v, parsed.positionals);
    case 'ls':
      return ls(ctx, v);
    case 'get':
      return get(ctx, v, parsed.positionals[0]!);
    case 'request create':
      return requestCreate(ctx, v);
    case 'receipt verify':
      return receiptVerify(ctx, v, parsed.positionals[0]!);
  }
}

export async function main(
  argv: readonly string[],
  io: CliIo = {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
  },
): Promise<number> {
  const json = argv.includes('--json');
  try {
    return await dispatch(io, parseCommandLine(argv));
  } catch (err) {
    const cli = err instanceof CliError ? err : undefined;
    const exitCode = cli?.exitCode ?? EXIT.usage;
    const message = redact(describeError(err));
    if (json) io.stdout.write(`${JSON.stringify({ error: { code: cli?.code ?? 'error', message, exitCode } })}\n`);
    else io.stderr.write(`sendbridge: ${message}\n`);
    return exitCode;
  }
}
