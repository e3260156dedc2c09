import { SECOND_MS } from '@domain/units';

/** Speed is averaged over roughly the last 5 seconds, so one slow or fast part does not jump it. */
export const SPEED_WINDOW_MS = 5 * SECOND_MS;

/**
 * Moving-average upload speed from (time, bytes sent) samples. The oldest sample kept is the
 * last one at or before the window's start, so the average always spans the whole window
 * once the upload is older than it.
 */
export class SpeedMeter {
  private readonly samples: { t: number; bytes: number }[] = [];

  constructor(private readonly windowMs = SPEED_WINDOW_MS) {}

  add(t: number, bytes: number): void {
    const last = this.samples.at(-1);
    if (last && t <= last.t) {
      last.bytes = bytes;
    } else {
      this.samples.push({ t, bytes });
    }
    while (this.samples.length > 2 && this.samples[1]!.t <= t - this.windowMs) this.samples.shift();
  }

  /** bytes per second; 0 until two samples span some time */
  bytesPerSecond(): number {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    if (!first || !last || last.t <= first.t) return 0;
    return Math.max(0, ((last.bytes - first.bytes) * SECOND_MS) / (last.t - first.t));
  }

  /** time since the first sample, ms */
  spanMs(): number {
    const first = this.samples[0];
    const last = this.samples.at(-1);
    return first && last ? last.t - first.t : 0;
  }
}
