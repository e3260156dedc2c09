/**
 * A link that works while the upload runs (docs/decisions/0074-a-link-that-works-while-uploading.md):
 * when a transfer is shared before its files are in, how far the upload is, the estimate of the
 * time left, and how often the download page asks again. Pure: the app and the API share it.
 */

/** What the download page shows of an upload still under way (absent once the transfer is complete). */
export interface LiveUploadView {
  /** every file of the transfer, and those complete (downloadable once scanned) */
  readonly fileCount: number;
  readonly filesDone: number;
  readonly totalBytes: number;
  /** bytes of complete files plus the recorded parts of the others */
  readonly bytesDone: number;
  /** the estimate from the recent upload rate; absent while there is no rate (or it stalled) */
  readonly secondsLeft?: number;
}

/** One piece of the upload the server heard of: a recorded part, or a single file completed. */
export interface UploadEvent {
  /** epoch ms */
  readonly at: number;
  readonly bytes: number;
}

/** The rate is taken over the last 10 minutes of the upload, so a paused and resumed upload is not averaged with its pause. */
export const RATE_WINDOW_MS = 10 * 60_000;
/** No piece for this long: the sender's upload stalled, no time left is said. */
export const STALLED_AFTER_MS = 10 * 60_000;

/**
 * Seconds left to upload `remainingBytes`, from the bytes the server heard of in the last
 * RATE_WINDOW_MS before the latest piece: the bytes after the window's first piece over the time
 * since it (the first piece's own bytes were sent before its time, when the window does not see).
 * With a single piece in the window, the average since the transfer was created. Counted from the
 * latest piece, minus the time since. Undefined without a rate, when stalled, or when nothing is left.
 */
export function estimateSecondsLeft(
  events: readonly UploadEvent[],
  remainingBytes: number,
  createdAt: number,
  now: number,
): number | undefined {
  if (remainingBytes <= 0 || events.length === 0) return undefined;
  const sorted = [...events].sort((a, b) => a.at - b.at);
  const last = sorted[sorted.length - 1]!;
  if (now - last.at > STALLED_AFTER_MS) return undefined;
  const recent = sorted.filter((e) => e.at >= last.at - RATE_WINDOW_MS);
  const first = recent[0]!;
  let rate: number | undefined;
  if (recent.length >= 2 && last.at > first.at) {
    const bytes = recent.slice(1).reduce((sum, e) => sum + e.bytes, 0);
    rate = bytes / (last.at - first.at);
  } else if (last.at > createdAt) {
    rate = sorted.reduce((sum, e) => sum + e.bytes, 0) / (last.at - createdAt);
  }
  if (rate === undefined || !(rate > 0)) return undefined;
  const left = remainingBytes / rate - Math.max(0, now - last.at);
  return Math.max(1, Math.ceil(left / 1000));
}

/**
 * How long the download page waits before asking again while the upload runs: 3 s, growing by
 * half each time nothing changed, up to a minute; back to 3 s when a file arrived.
 */
export function livePollDelayMs(unchangedPolls: number): number {
  return Math.min(60_000, Math.round(3000 * 1.5 ** Math.max(0, unchangedPolls)));
}

/** "Mail me when it's complete": per client address, and per transfer (the list a sender's mail goes to). */
export const WATCH_PER_IP = { limit: 10, windowSeconds: 3600 } as const;
export const WATCH_PER_TRANSFER = { limit: 100, windowSeconds: 24 * 3600 } as const;
