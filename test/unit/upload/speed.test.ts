import { describe, expect, it } from 'vitest';
import { SPEED_WINDOW_MS, SpeedMeter } from '../../../frontend/src/shared/upload/speed';

describe('upload speed', () => {
  it('is 0 until two samples span some time', () => {
    const m = new SpeedMeter();
    expect(m.bytesPerSecond()).toBe(0);
    m.add(1000, 0);
    expect(m.bytesPerSecond()).toBe(0);
    m.add(1500, 500_000);
    expect(m.bytesPerSecond()).toBe(1_000_000);
  });

  it('averages over the last 5 seconds only', () => {
    const m = new SpeedMeter();
    // 10 s at 1 MB/s, then 5 s at 4 MB/s: the window sees only the fast part
    let bytes = 0;
    for (let t = 0; t <= 10_000; t += 500) {
      m.add(t, bytes);
      bytes += 500_000;
    }
    bytes -= 500_000;
    for (let t = 10_500; t <= 15_000; t += 500) {
      bytes += 2_000_000;
      m.add(t, bytes);
    }
    expect(SPEED_WINDOW_MS).toBe(5000);
    expect(m.bytesPerSecond()).toBeCloseTo(4_000_000, -3);
    expect(m.spanMs()).toBe(5000);
  });

  it('falls towards 0 while nothing is sent', () => {
    const m = new SpeedMeter();
    m.add(0, 0);
    m.add(1000, 1_000_000);
    m.add(3500, 1_000_000);
    expect(m.bytesPerSecond()).toBeCloseTo(1_000_000 / 3.5, 0);
    m.add(9000, 1_000_000);
    expect(m.bytesPerSecond()).toBe(0);
  });

  it('never goes negative when in-flight bytes are taken back after a failure', () => {
    const m = new SpeedMeter();
    m.add(0, 1000);
    m.add(1000, 400);
    expect(m.bytesPerSecond()).toBe(0);
  });
});
