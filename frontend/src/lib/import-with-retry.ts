/**
 * Spec §9: a lazy chunk load retries 5 times, 3 s apart, each attempt bounded by 120 s, so a
 * flaky connection or a deploy that replaced the chunk does not leave a blank screen at once.
 */
export async function importWithRetry<T>(
  load: () => Promise<T>,
  { retries = 5, delayMs = 3_000, timeoutMs = 120_000 }: { retries?: number; delayMs?: number; timeoutMs?: number } = {},
): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await withTimeout(load(), timeoutMs);
    } catch (error) {
      if (attempt >= retries) throw error;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Chunk load timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
