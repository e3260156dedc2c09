/** A field's problem line, or null (so a hint can stand in with `??`). */
export function fieldErrorLine(id: string, text: string | undefined) {
  return text ? (
    <p id={id} className="tr-field-error">
      {text}
    </p>
  ) : null;
}
