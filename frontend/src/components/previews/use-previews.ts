import { useCallback, useEffect, useRef, useState } from 'react';
import type { PreviewsResponse } from '@domain/previews';

/** Ask for fresh URLs this long before the current ones lapse (spec §9: they live 600 s). */
const RENEW_BEFORE_MS = 60_000;
/** While a thumbnail is being made: ask again this often, at most this many times. */
export const PENDING_POLL_MS = 2_000;
const PENDING_POLLS = 45;
/** A broken image or player asks for new URLs at most this often. */
const RENEW_ON_ERROR_MS = 10_000;

export interface PreviewsState {
  readonly data: PreviewsResponse | null;
  readonly failed: boolean;
  /** new URLs now (a URL lapsed while the page was open, or an element failed to load) */
  renew(): void;
}

/**
 * The previews of a transfer, kept fresh while the page is open: renewed a minute before their
 * URLs lapse (at once when a hidden tab comes back after that), asked again while thumbnails
 * are being made, and on demand when an element reports its URL failed.
 */
export function usePreviews(load: (signal: AbortSignal) => Promise<PreviewsResponse>): PreviewsState {
  const [data, setData] = useState<PreviewsResponse | null>(null);
  const [failed, setFailed] = useState(false);
  const [generation, setGeneration] = useState(0);
  const fetchedAt = useRef(0);
  const lastErrorRenew = useRef(0);
  const polls = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  /** a poll for thumbnails keeps the URLs it has (an open image or text would reload otherwise) */
  const polling = useRef(false);

  useEffect(() => {
    const controller = new AbortController();
    const poll = polling.current;
    polling.current = false;
    loadRef.current(controller.signal).then(
      (answer) => {
        if (controller.signal.aborted) return;
        if (poll) {
          setData((previous) => (previous ? keepUrls(previous, answer) : answer));
        } else {
          fetchedAt.current = Date.now();
          setData(answer);
        }
        setFailed(false);
      },
      () => {
        if (!controller.signal.aborted) setFailed(true);
      },
    );
    return () => controller.abort();
  }, [generation]);

  const renew = useCallback(() => setGeneration((g) => g + 1), []);

  // Renewal before the URLs lapse; a tab that was hidden past that renews when it is seen again.
  useEffect(() => {
    if (!data) return;
    const lifetimeMs = data.expiresIn * 1000;
    const due = () => fetchedAt.current + Math.max(lifetimeMs - RENEW_BEFORE_MS, lifetimeMs / 2);
    const timer = setTimeout(renew, Math.max(0, due() - Date.now()));
    const onVisible = () => {
      if (document.visibilityState === 'visible' && Date.now() >= due()) renew();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [data, renew]);

  // Thumbnails being made: ask again shortly (the icon shows meanwhile).
  useEffect(() => {
    if (!data?.files.some((f) => f.thumbnail?.status === 'pending') || polls.current >= PENDING_POLLS) return;
    const timer = setTimeout(() => {
      polls.current += 1;
      polling.current = true;
      renew();
    }, PENDING_POLL_MS);
    return () => clearTimeout(timer);
  }, [data, renew]);

  const renewOnError = useCallback(() => {
    if (Date.now() - lastErrorRenew.current < RENEW_ON_ERROR_MS) return;
    lastErrorRenew.current = Date.now();
    renew();
  }, [renew]);

  return { data, failed, renew: renewOnError };
}

/** The new answer's thumbnails with the URLs of the files already shown (still fresh: renewal replaces them). */
function keepUrls(previous: PreviewsResponse, next: PreviewsResponse): PreviewsResponse {
  const urls = new Map(previous.files.map((f) => [f.fileId, f.url]));
  return { ...next, files: next.files.map((f) => (urls.get(f.fileId) ? { ...f, url: urls.get(f.fileId) } : f)) };
}
