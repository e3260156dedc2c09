import { errorFields, log } from './log';

export interface CheckResult {
  readonly ok: boolean;
  readonly ms: number;
  readonly error?: string;
  readonly detail?: unknown;
}

/** Runs one dependency check with a deadline; never throws (the caller reports per service). */
export async function runCheck(name: string, check: () => Promise<unknown>, timeoutMs: number): Promise<CheckResult> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
    });
    const detail = await Promise.race([check(), deadline]);
    return { ok: true, ms: Date.now() - started, ...(detail === undefined ? {} : { detail }) };
  } catch (err) {
    log.warn('health check failed', { check: name, ...errorFields(err) });
    const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
    return { ok: false, ms: Date.now() - started, error: message };
  } finally {
    clearTimeout(timer);
  }
}
