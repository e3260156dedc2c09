/** spec §9 signal bars (2 to 5 of 5) drawn as five rising bars; the label says the count to screen readers. */
export function SignalBars({ bars, label, testId }: { bars: number | null; label: string; testId: string }) {
  return (
    <span
      className="signal-bars"
      role="img"
      aria-label={label || undefined}
      aria-hidden={label ? undefined : true}
      data-testid={testId}
      data-bars={bars ?? ''}
    >
      <svg width="26" height="16" viewBox="0 0 26 16" aria-hidden="true" focusable="false">
        {[0, 1, 2, 3, 4].map((i) => (
          <rect
            key={i}
            x={i * 5.5}
            y={16 - (i + 1) * 3.2}
            width="4"
            height={(i + 1) * 3.2}
            rx="1"
            className={bars !== null && i < bars ? 'signal-on' : 'signal-off'}
          />
        ))}
      </svg>
    </span>
  );
}
