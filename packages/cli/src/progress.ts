/**
 * Upload progress on the terminal: a bar with percent, bytes, speed and time left, redrawn in
 * place on a TTY; plain lines (at most every few seconds) otherwise; NDJSON events with --json.
 */
import type { UploadProgress } from '../../../frontend/src/shared/upload/engine';
import { formatBytes } from '../../../functions/domain/format';

/** Sizes and speeds in the product's units (`1.5 GB`, `268 B`): the mails' and the server's formatter. */
export { formatBytes };

export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  return `${h}h${String(m % 60).padStart(2, '0')}m`;
}

/** One line: `[#####.....]  42%  1.2 GB / 2.9 GB  35.1 MB/s  0m48s left`. */
export function progressLine(p: UploadProgress, width = 24): string {
  const ratio = p.bytesTotal > 0 ? Math.min(1, p.bytesDone / p.bytesTotal) : 1;
  const filled = Math.round(ratio * width);
  const bar = '#'.repeat(filled) + '.'.repeat(width - filled);
  const pct = `${Math.floor(ratio * 100)}%`.padStart(4);
  const speed = p.speedBps > 0 ? `${formatBytes(p.speedBps)}/s` : '-';
  const eta = p.etaMs === null ? (p.phase === 'almost-done' ? 'finishing' : '') : `${formatDuration(p.etaMs)} left`;
  const retry = p.tryNumber > 1 ? `  (retrying, try ${p.tryNumber})` : '';
  return `[${bar}] ${pct}  ${formatBytes(p.bytesDone)} / ${formatBytes(p.bytesTotal)}  ${speed}  ${eta}${retry}`.trimEnd();
}

export interface ProgressSink {
  progress(p: UploadProgress): void;
  /** a line for people (not in --json mode) */
  note(line: string): void;
  /** a machine event (only in --json mode) */
  event(e: Record<string, unknown>): void;
  end(): void;
}

export function createProgressSink(
  mode: { json: boolean; tty: boolean },
  out: NodeJS.WritableStream,
  err: NodeJS.WritableStream,
): ProgressSink {
  let lastPlain = 0;
  let drawn = false;
  const clear = () => {
    if (drawn) err.write('\r\x1b[2K');
    drawn = false;
  };
  return {
    progress(p) {
      if (mode.json) {
        out.write(
          `${JSON.stringify({ event: 'progress', bytesDone: p.bytesDone, bytesTotal: p.bytesTotal, filesDone: p.filesDone, filesTotal: p.filesTotal, speedBps: Math.round(p.speedBps), etaMs: p.etaMs, phase: p.phase, tryNumber: p.tryNumber })}\n`,
        );
        return;
      }
      if (mode.tty) {
        err.write(`\r\x1b[2K${progressLine(p)}`);
        drawn = true;
        return;
      }
      const now = Date.now();
      if (now - lastPlain >= 5000 || p.bytesDone === p.bytesTotal) {
        lastPlain = now;
        err.write(`${progressLine(p)}\n`);
      }
    },
    note(line) {
      if (mode.json) return;
      clear();
      err.write(`${line}\n`);
    },
    event(e) {
      if (mode.json) out.write(`${JSON.stringify(e)}\n`);
    },
    end() {
      if (drawn) err.write('\n');
      drawn = false;
    },
  };
}
