/**
 * Argument parsing (node:util parseArgs, strict): the command, its options and positionals,
 * and the expiry syntax `1h`, `1d`, `1w`, `1mo`, `3mo`, `1y` or a number of seconds.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './errors';

export type Command =
  | 'login'
  | 'logout'
  | 'send'
  | 'ls'
  | 'get'
  | 'request create'
  | 'receipt verify'
  | 'help'
  | 'version';

export interface ParsedCommand {
  command: Command;
  values: Record<string, string | boolean | string[] | undefined>;
  positionals: string[];
}

const GLOBAL_OPTIONS = {
  api: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

const COMMAND_OPTIONS: Record<
  Exclude<Command, 'help' | 'version'>,
  { options: ParseArgsConfig['options']; positionals: [number, number] }
> = {
  login: { options: { key: { type: 'string' } }, positionals: [0, 0] },
  logout: { options: {}, positionals: [0, 0] },
  send: {
    options: {
      to: { type: 'string', multiple: true },
      link: { type: 'boolean' },
      message: { type: 'string', short: 'm' },
      expiry: { type: 'string' },
      password: { type: 'string' },
      'sender-name': { type: 'string' },
      parallel: { type: 'string' },
      restart: { type: 'boolean' },
      e2e: { type: 'boolean' },
      'passphrase-file': { type: 'string' },
    },
    positionals: [1, Infinity],
  },
  ls: {
    options: { filter: { type: 'string' }, skip: { type: 'string' }, search: { type: 'string' } },
    positionals: [0, 0],
  },
  get: {
    options: {
      output: { type: 'string', short: 'o' },
      zip: { type: 'boolean' },
      password: { type: 'string' },
      'passphrase-file': { type: 'string' },
    },
    positionals: [1, 1],
  },
  'request create': {
    options: { title: { type: 'string' }, message: { type: 'string', short: 'm' } },
    positionals: [0, 0],
  },
  'receipt verify': { options: { keys: { type: 'string' } }, positionals: [1, 1] },
};

export function parseCommandLine(argv: readonly string[]): ParsedCommand {
  const first = argv[0];
  if (first === undefined || first === 'help' || first === '--help' || first === '-h')
    return { command: 'help', values: {}, positionals: [] };
  if (first === '--version' || first === 'version' || first === '-V')
    return { command: 'version', values: {}, positionals: [] };
  let command: Exclude<Command, 'help' | 'version'>;
  let rest: readonly string[];
  if (first === 'request') {
    if (argv[1] !== 'create')
      throw new UsageError(`${`unknown command: request ${argv[1] ?? ''}`.trim()} (did you mean "request create"?)`);
    command = 'request create';
    rest = argv.slice(2);
  } else if (first === 'receipt') {
    if (argv[1] !== 'verify')
      throw new UsageError(`${`unknown command: receipt ${argv[1] ?? ''}`.trim()} (did you mean "receipt verify"?)`);
    command = 'receipt verify';
    rest = argv.slice(2);
  } else if (first in COMMAND_OPTIONS) {
    command = first as Exclude<Command, 'help' | 'version'>;
    rest = argv.slice(1);
  } else {
    throw new UsageError(`unknown command: ${first} (try "sendbridge help")`);
  }
  const spec = COMMAND_OPTIONS[command];
  refusePassphraseArgument(rest);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: [...rest],
      options: { ...GLOBAL_OPTIONS, ...spec.options },
      allowPositionals: true,
      strict: true,
    });
  } catch (err) {
    throw new UsageError(
      err instanceof Error ? err.message.replace(/\. To specify a positional.*$/su, '') : String(err),
    );
  }
  const values = parsed.values as ParsedCommand['values'];
  if (values.help) return { command: 'help', values: { topic: command }, positionals: [] };
  const [min, max] = spec.positionals;
  if (parsed.positionals.length < min)
    throw new UsageError(
      `${command}: missing ${command === 'get' ? 'a link or transfer id' : command === 'receipt verify' ? 'the receipt file' : 'the files or folders to send'}`,
    );
  if (parsed.positionals.length > max)
    throw new UsageError(`${command}: unexpected argument ${parsed.positionals[max]}`);
  validate(command, values);
  return { command, values, positionals: parsed.positionals };
}

/**
 * An end-to-end passphrase is never taken as an argument: every user of the machine sees a
 * process's arguments (ps, /proc), and shells keep them in their history.
 */
function refusePassphraseArgument(args: readonly string[]): void {
  for (const a of args) {
    if (a === '--') return;
    if (/^--passphrase(=|$)/u.test(a))
      throw new UsageError(
        'a passphrase is never given as an argument (any user of this machine could read it in the process list): use --passphrase-file <path>, $SENDBRIDGE_PASSPHRASE or the prompt',
      );
  }
}

function validate(command: Command, v: ParsedCommand['values']): void {
  if (command === 'send') {
    if (typeof v['passphrase-file'] === 'string' && !v.e2e)
      throw new UsageError('send: --passphrase-file is for end-to-end encrypted sends (--e2e)');
    const to = (v.to as string[] | undefined) ?? [];
    if (v.link && to.length > 0) throw new UsageError('send: use either --to (email) or --link, not both');
    if (!v.link && to.length === 0) throw new UsageError('send: say who gets it: --to a@b.c (repeatable) or --link');
    for (const email of to)
      if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/u.test(email)) throw new UsageError(`send: not an email address: ${email}`);
    if (typeof v.expiry === 'string') parseExpiry(v.expiry);
    if (typeof v.parallel === 'string' && !/^[1-9][0-9]?$/u.test(v.parallel))
      throw new UsageError('send: --parallel takes a number from 1 to 99');
  }
  if (command === 'request create' && (typeof v.title !== 'string' || v.title.trim() === ''))
    throw new UsageError('request create: --title is required');
  if (command === 'ls' && typeof v.skip === 'string' && !/^[0-9]+$/u.test(v.skip))
    throw new UsageError('ls: --skip takes a number');
}

const UNIT_SECONDS: Record<string, number> = {
  s: 1,
  m: 60,
  min: 60,
  h: 3600,
  d: 86400,
  w: 604800,
  // the product's month and year presets (domain/expiry.ts EXPIRY_PRESETS)
  mo: 2629746,
  y: 31536000,
};

/**
 * `1w` -> 604800. Units: s, m|min, h, d, w, mo (the product's month, 2629746 s), y (365 days),
 * or a bare number of seconds. Which durations a plan accepts is the server's call.
 */
export function parseExpiry(value: string): number {
  const m = /^\s*([0-9]+)\s*(s|m|min|h|d|w|mo|y)?\s*$/iu.exec(value);
  if (!m) throw new UsageError(`--expiry: expected a duration like 1h, 1d, 1w, 1mo, 1y or seconds, not "${value}"`);
  const n = Number(m[1]);
  const unit = (m[2] ?? 's').toLowerCase();
  const seconds = n * UNIT_SECONDS[unit]!;
  if (!Number.isSafeInteger(seconds) || seconds <= 0)
    throw new UsageError(`--expiry: must be a positive duration, not "${value}"`);
  return seconds;
}
