/** Conversions for <input type="datetime-local">, whose value is a wall-clock time without zone. */

const pad = (n: number) => String(n).padStart(2, '0');

/** Epoch ms as 'YYYY-MM-DDTHH:mm' in the browser's time zone (minutes; seconds dropped). */
export function toLocalInputValue(ms: number): string {
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** 'YYYY-MM-DDTHH:mm[:ss]' read in the browser's time zone, or null for anything else. */
export function fromLocalInputValue(value: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/u.exec(value);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = m.slice(1).map((s) => Number(s ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const d = new Date(year, month - 1, day, hour, minute, second);
  // Date rolls 2025-02-30 over to March; such a value is not a date the picker offered.
  if (d.getFullYear() !== year || d.getMonth() !== month - 1 || d.getDate() !== day) return null;
  return d.getTime();
}

/** Rounds up to the next whole minute: the picker has no seconds, and rounding down could fall under the minimum. */
export function ceilToMinute(ms: number): number {
  return Math.ceil(ms / 60_000) * 60_000;
}
