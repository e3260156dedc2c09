import type { BrowserContext, Request } from 'playwright-core';

const LEVELS: Record<string, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

/** A secret to look for, in every form it could travel in. */
export interface Secret {
  readonly label: string;
  readonly text?: string;
  readonly bytes?: Uint8Array;
}

/** The forms a key's bytes take in text: base64url, base64, hex. */
function textForms(secret: Secret): string[] {
  const forms: string[] = [];
  if (secret.text) forms.push(secret.text, encodeURIComponent(secret.text));
  if (secret.bytes) {
    const b = Buffer.from(secret.bytes);
    forms.push(b.toString('base64url'), b.toString('base64').replace(/=+$/u, ''), b.toString('hex'));
  }
  return forms;
}

/**
 * Records what leaves a browser (every request's URL, headers and body, service workers' too),
 * what this process logs (the local gateway runs the functions in-process) and whatever else a
 * test adds (mails), then says where any of a set of secrets turned up.
 */
export class LeakWatch {
  private readonly texts: { where: string; text: string }[] = [];
  private readonly bodies: { where: string; body: Buffer }[] = [];
  private readonly undo: (() => void)[] = [];
  private pending: Promise<void>[] = [];
  requests = 0;

  /** Every request of the context from now on. */
  watchBrowser(context: BrowserContext): void {
    const onRequest = (req: Request) => {
      this.requests++;
      const where = `${req.method()} ${req.url().slice(0, 120)}`;
      this.texts.push({ where, text: `${req.url()}\n${JSON.stringify(req.headers())}` });
      const body = req.postDataBuffer();
      if (body) this.bodies.push({ where, body });
      // the headers the network layer really sent, cookies included
      this.pending.push(
        req.allHeaders().then(
          (h) => void this.texts.push({ where, text: JSON.stringify(h) }),
          () => undefined,
        ),
      );
    };
    context.on('request', onRequest);
    this.undo.push(() => context.off('request', onRequest));
  }

  /** Every line this process writes, at the most talkative log level, from now until stop(). */
  watchLogs(): void {
    const level = process.env.LOG_LEVEL;
    process.env.LOG_LEVEL = 'debug';
    for (const stream of [process.stdout, process.stderr]) {
      const write = stream.write.bind(stream);
      stream.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
        const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString();
        this.texts.push({ where: 'log', text });
        // lines below the level the run asked for are kept for the check, not printed
        const lineLevel = /"level":"(\w+)"/u.exec(text)?.[1];
        if (lineLevel && (LEVELS[lineLevel] ?? 100) < (LEVELS[level ?? 'info'] ?? 20)) return true;
        return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
      }) as typeof stream.write;
      this.undo.push(() => {
        stream.write = write;
      });
    }
    this.undo.push(() => {
      if (level === undefined) delete process.env.LOG_LEVEL;
      else process.env.LOG_LEVEL = level;
    });
  }

  /** How many lines were logged while watched. */
  get logLines(): number {
    return this.texts.filter((t) => t.where === 'log').length;
  }

  add(where: string, text: string): void {
    this.texts.push({ where, text });
  }

  async stop(): Promise<void> {
    for (const u of this.undo.splice(0).reverse()) u();
    await Promise.all(this.pending);
    this.pending = [];
  }

  /** Where each secret was found: empty when nothing leaked. */
  leaksOf(secrets: readonly Secret[]): string[] {
    const found: string[] = [];
    for (const s of secrets) {
      const forms = textForms(s).filter((f) => f.length >= 8);
      for (const { where, text } of this.texts) {
        if (forms.some((f) => text.includes(f))) found.push(`${s.label} in ${where}`);
      }
      for (const { where, body } of this.bodies) {
        if (forms.some((f) => body.includes(f)) || (s.bytes && body.includes(Buffer.from(s.bytes)))) {
          found.push(`${s.label} in the body of ${where}`);
        }
      }
    }
    return found;
  }
}
