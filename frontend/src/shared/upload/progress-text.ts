/**
 * Progress and warning texts of the upload (spec §4, §8, §9) as translation keys, so the
 * thresholds live in one place and every language says the same thing at the same moment.
 * The English copy equals functions/domain/time-remaining.ts (a unit test holds them together).
 */
import { progressWidthPercent } from '@domain/time-remaining';

/** The engine's phases (upload/engine.ts UploadPhase) and their spec texts. */
export const PHASE_KEYS = {
  'getting-ready': 'send.progress.phase.gettingReady',
  'warming-up': 'send.progress.phase.warmingUp',
  transferring: 'send.progress.phase.transferring',
  resuming: 'send.progress.phase.resuming',
  'almost-done': 'send.progress.phase.almostDone',
} as const;

export type PhaseName = keyof typeof PHASE_KEYS;

/** Whole percent done, 0..100; 100 only when every byte is in. */
export function percentDone(bytesDone: number, bytesTotal: number): number {
  if (!(bytesTotal > 0)) return 0;
  const exact = (Math.max(0, bytesDone) / bytesTotal) * 100;
  return bytesDone >= bytesTotal ? 100 : Math.min(99, Math.floor(exact));
}

/** Width of the bar in percent: never below 3 so a fresh upload shows (spec §9). */
export function barWidthPercent(percent: number): number {
  return progressWidthPercent(percent);
}

/**
 * The ring's arc as SVG dash values, so it shows the same share as the bar. A round line cap
 * adds half the stroke width at each end of the dash, which closed the ring at ~97 % while
 * the bar still had a gap; the dash is shortened by the caps and starts half a cap in.
 */
export function ringArc(
  percent: number,
  circumference: number,
  strokeWidth: number,
): { dashArray: string; dashOffset: number; visible: boolean } {
  const share = Math.min(100, Math.max(0, Number.isFinite(percent) ? percent : 0)) / 100;
  const dash = Math.max(0, share * circumference - strokeWidth);
  return { dashArray: `${dash} ${circumference}`, dashOffset: -strokeWidth / 2, visible: share > 0 };
}

export type RemainingText =
  | {
      key:
        | 'send.progress.remaining.calculating'
        | 'send.progress.remaining.under30'
        | 'send.progress.remaining.underMinute';
    }
  | {
      key: 'send.progress.remaining.minutes' | 'send.progress.remaining.hours' | 'send.progress.remaining.days';
      count: number;
    };

/** The time-remaining line for an ETA in ms (null while the engine has no estimate). */
export function remainingText(etaMs: number | null | undefined): RemainingText {
  const seconds = etaMs == null ? null : etaMs / 1000;
  if (seconds == null || !Number.isFinite(seconds) || seconds < 0)
    return { key: 'send.progress.remaining.calculating' };
  if (seconds < 30) return { key: 'send.progress.remaining.under30' };
  if (seconds < 60) return { key: 'send.progress.remaining.underMinute' };
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return { key: 'send.progress.remaining.minutes', count: minutes };
  const hours = Math.round(seconds / 3600);
  if (hours < 24) return { key: 'send.progress.remaining.hours', count: hours };
  return { key: 'send.progress.remaining.days', count: Math.round(seconds / 86400) };
}

/**
 * The time-remaining line for the view: with every byte in, nothing is left to estimate, so it
 * never reads 'Calculating...' beside a full ring (the engine has no speed for an upload that
 * ended within its first second).
 */
export function remainingFor(progress: {
  bytesDone: number;
  bytesTotal: number;
  etaMs: number | null | undefined;
}): RemainingText {
  if (percentDone(progress.bytesDone, progress.bytesTotal) >= 100) return { key: 'send.progress.remaining.under30' };
  return remainingText(progress.etaMs);
}

/** The engine's warnings (upload/engine.ts UploadWarning), structurally. */
export type WarningInput =
  | { kind: 'retrying'; tryNumber: number }
  | { kind: 'network'; message: string }
  | { kind: 'file-locked'; fileName: string };

export type WarningToast =
  | { title: 'send.toast.slowNetwork'; body: 'send.toast.weAreRetrying' }
  | { title: 'send.toast.retrying'; body: 'send.toast.networkError'; message: string }
  | { title: 'send.toast.fileLocked'; body: 'send.toast.fileLockedBody'; fileName: string };

/** Spec §8: 'Slow network' / 'We are retrying...', 'Retrying' / 'Network error ~ {message}', 'File is locked'. */
export function warningToast(warning: WarningInput): WarningToast {
  switch (warning.kind) {
    case 'retrying':
      return { title: 'send.toast.slowNetwork', body: 'send.toast.weAreRetrying' };
    case 'network':
      return { title: 'send.toast.retrying', body: 'send.toast.networkError', message: warning.message };
    case 'file-locked':
      return { title: 'send.toast.fileLocked', body: 'send.toast.fileLockedBody', fileName: warning.fileName };
  }
}

/** The screen-reader line announces progress in 10 % steps, not on every tick. */
export function announcedPercent(percent: number): number {
  return percent >= 100 ? 100 : Math.floor(percent / 10) * 10;
}
