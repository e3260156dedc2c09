/**
 * Exit codes (docs/cli.md): scripts can tell a typo from a bad key from a dead link from a
 * flaky network from a server fault.
 */
export const EXIT = {
  ok: 0,
  usage: 1,
  auth: 2,
  notFound: 3,
  network: 4,
  server: 5,
  /** `receipt verify`: the receipt is not valid (changed, forged, or not a receipt) */
  refused: 6,
  /** interrupted (Ctrl-C): the upload can be resumed by running the same command again */
  interrupted: 130,
} as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Something the CLI can report in one line and map to an exit code. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

export class UsageError extends CliError {
  constructor(message: string) {
    super(message, EXIT.usage, 'usage');
    this.name = 'UsageError';
  }
}

/** An error answer of the SendBridge API: `{ error: { code, message, details } }`. */
export class ApiError extends CliError {
  constructor(
    readonly status: number,
    code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message, exitCodeForStatus(status, code), code);
    this.name = 'ApiError';
  }
}

/** No HTTP answer at all (DNS, refused, reset, timeout). */
export class NetworkError extends CliError {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, EXIT.network, 'network');
    this.name = 'NetworkError';
    if (options?.cause !== undefined) (this as { cause?: unknown }).cause = options.cause;
  }
}

export function exitCodeForStatus(status: number, code?: string): ExitCode {
  if (status === 401 || code === 'invalid_api_key' || code === 'key_scope_missing' || code === 'api_keys_not_allowed')
    return EXIT.auth;
  if (status === 404 || status === 410) return EXIT.notFound;
  if (status === 408 || status === 429) return EXIT.network;
  if (status >= 500) return EXIT.server;
  return EXIT.usage;
}

/** The API's request fields that a CLI option sets: a refusal names the option the user typed. */
const OPTION_OF_FIELD: Readonly<Record<string, string>> = {
  message: '--message',
  emailTo: '--to',
  password: '--password',
  expirySeconds: '--expiry',
  customExpiryDate: '--expiry',
  senderName: '--sender-name',
  title: '--title',
  filter: '--filter',
  skip: '--skip',
  q: '--search',
};

/**
 * What to print for an error: a refused request (`invalid_request`, or a product rule with a
 * field) reads "--message: Message can be at most 280 characters" instead of the API's
 * "body: message Message …"; everything else as it came.
 */
export function describeError(err: unknown): string {
  if (!(err instanceof ApiError)) return err instanceof Error ? err.message : String(err);
  const issues = (err.details as { issues?: { field?: unknown; message?: unknown }[] } | undefined)?.issues;
  const first = Array.isArray(issues) ? issues[0] : undefined;
  if (!first || typeof first.message !== 'string') return err.message;
  const field = typeof first.field === 'string' ? first.field.split('.')[0]! : '';
  const option = OPTION_OF_FIELD[field];
  return option ? `${option}: ${first.message}` : field ? `${field}: ${first.message}` : first.message;
}
