/** A code block; focusable, as it may scroll sideways (axe: scrollable-region-focusable). */
export function Code({ label, code, testId }: { label: string; code: string; testId?: string }) {
  return (
    <figure className="dev-code">
      <figcaption>{label}</figcaption>
      <pre tabIndex={0} {...(testId ? { 'data-testid': testId } : {})}>
        <code>{code}</code>
      </pre>
    </figure>
  );
}
