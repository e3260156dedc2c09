/**
 * How long the local stack waits for an emulator to start. DynamoDB Local (Java) and the Node
 * emulators start in a few seconds on an idle machine but can take a minute or more on a loaded
 * 2-core one, so the default is generous and EMULATOR_START_TIMEOUT_MS raises it.
 */
export const START_TIMEOUT_ENV = 'EMULATOR_START_TIMEOUT_MS';
export const DEFAULT_START_TIMEOUT_MS = 120_000;

/** The wait from the environment (or the default); refuses anything that is not a positive whole number of ms. */
export function startTimeoutMs(source: NodeJS.ProcessEnv = process.env): number {
  const raw = source[START_TIMEOUT_ENV];
  if (raw === undefined || raw === '') return DEFAULT_START_TIMEOUT_MS;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0)
    throw new Error(`${START_TIMEOUT_ENV}=${raw} is not a number of milliseconds (e.g. ${START_TIMEOUT_ENV}=240000).`);
  return n;
}

export interface StartTimeout {
  /** the emulator's name, e.g. "DynamoDB Local" */
  readonly service: string;
  /** where it should have listened */
  readonly host: string;
  readonly port?: number;
  /** the emulator's process, still running when the wait ran out */
  readonly pid?: number;
  readonly timeoutMs: number;
}

/**
 * One line that says what was waited for, what to look at, and how to wait longer, e.g.
 * "DynamoDB Local (pid 4242) did not listen on 127.0.0.1:8000 within 120 s: on a busy machine set
 * EMULATOR_START_TIMEOUT_MS=240000 in .env; otherwise see whether pid 4242 is stuck (DEBUG=1 shows its output)".
 */
export function startTimeoutMessage(t: StartTimeout): string {
  const who = t.pid ? `${t.service} (pid ${t.pid})` : t.service;
  const where = t.port ? `did not listen on ${t.host}:${t.port}` : 'did not say it was ready';
  const waited = t.timeoutMs >= 1000 ? `${Math.round(t.timeoutMs / 1000)} s` : `${t.timeoutMs} ms`;
  const longer = Math.max(t.timeoutMs * 2, DEFAULT_START_TIMEOUT_MS);
  const process = t.pid ? `pid ${t.pid}` : `the ${t.service} process`;
  return (
    `${who} ${where} within ${waited}: on a busy machine set ${START_TIMEOUT_ENV}=${longer} in .env; ` +
    `otherwise see whether ${process} is stuck (DEBUG=1 shows its output)`
  );
}

/** An emulator that did not start within the wait; its message is startTimeoutMessage's line. */
export class StartTimeoutError extends Error {
  constructor(readonly timeout: StartTimeout) {
    super(startTimeoutMessage(timeout));
    this.name = 'StartTimeoutError';
  }
}
