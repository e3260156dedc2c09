import { useEffect, useRef } from 'react';
import { useParams } from 'react-router';

/**
 * The TransferModal closed: focus goes back to the row it was opened for, after the dialog's
 * own focus return, and once the row is there (a modal opened by its address may close
 * before the list behind it has loaded).
 */
export function useRowFocusReturn() {
  const { slug } = useParams();
  const lastSlug = useRef<string | undefined>(undefined);
  useEffect(() => {
    const closed = lastSlug.current;
    lastSlug.current = slug;
    if (slug || !closed) return;
    let frames = 0;
    let frame = 0;
    const place = () => {
      const link = document.querySelector<HTMLElement>(`[data-slug="${CSS.escape(closed)}"] a`);
      if (link) link.focus();
      else if (frames < 119) {
        frames += 1;
        frame = requestAnimationFrame(place);
      }
    };
    frame = requestAnimationFrame(place);
    return () => cancelAnimationFrame(frame);
  }, [slug]);
}
