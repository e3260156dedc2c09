import { useEffect, useRef, useState } from 'react';

/**
 * An AbortSignal that aborts when the component really unmounts. StrictMode's development
 * check runs an effect's cleanup and setup back to back; aborting on a later tick lets that
 * immediate setup cancel the abort, so work started once (a download) is neither cut off nor
 * sent twice.
 */
export function useLifetimeSignal(): AbortSignal {
  const [controller] = useState(() => new AbortController());
  const pendingAbort = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => {
    clearTimeout(pendingAbort.current);
    return () => {
      pendingAbort.current = setTimeout(() => controller.abort(), 0);
    };
  }, [controller]);
  return controller.signal;
}
