import { useCallback, useEffect, useRef, useState } from 'react';

/** How long a Copy button says "Copied". */
const COPIED_MS = 1500;

/**
 * Copies a text to the clipboard and says so for a moment (`copied`). A refusal of the
 * clipboard (permissions) changes nothing: the text stays on screen to select by hand.
 */
export function useCopy() {
  const [copied, setCopied] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = useCallback(async (value: string) => {
    try {
      await navigator.clipboard.writeText(value);
    } catch {
      return;
    }
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_MS);
  }, []);
  return { copied, copy };
}
