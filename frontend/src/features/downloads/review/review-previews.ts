import { useCallback, useEffect, useRef, useState } from 'react';
import type { FilePreview, PreviewsResponse } from '@domain/previews';

/** New URLs this long before the current ones lapse (they live 600 s). */
const RENEW_BEFORE_MS = 60_000;
/** A broken image or player asks for new URLs at most this often. */
const RENEW_ON_ERROR_MS = 10_000;

/**
 * The review's previews (the whole file inline, per file id), renewed before their URLs lapse
 * and when an element reports its URL failed. The gallery's own hook stays in the gallery's
 * chunk: sharing it would split it into a chunk of its own on the page's first load.
 */
export function useReviewPreviews(load: (signal: AbortSignal) => Promise<PreviewsResponse>): {
  readonly files: ReadonlyMap<string, FilePreview> | null;
  readonly failed: boolean;
  renew(): void;
} {
  const [files, setFiles] = useState<ReadonlyMap<string, FilePreview> | null>(null);
  const [failed, setFailed] = useState(false);
  const [generation, setGeneration] = useState(0);
  const [lifetimeMs, setLifetimeMs] = useState(0);
  const lastErrorRenew = useRef(0);
  const loadRef = useRef(load);
  loadRef.current = load;

  useEffect(() => {
    const controller = new AbortController();
    loadRef.current(controller.signal).then(
      (answer) => {
        if (controller.signal.aborted) return;
        setFiles(new Map(answer.files.map((f) => [f.fileId, f])));
        setLifetimeMs(answer.expiresIn * 1000);
        setFailed(false);
      },
      () => {
        if (!controller.signal.aborted) setFailed(true);
      },
    );
    return () => controller.abort();
  }, [generation]);

  useEffect(() => {
    if (!files || lifetimeMs <= 0) return;
    const timer = setTimeout(() => setGeneration((g) => g + 1), Math.max(lifetimeMs - RENEW_BEFORE_MS, lifetimeMs / 2));
    return () => clearTimeout(timer);
  }, [files, lifetimeMs]);

  const renew = useCallback(() => {
    if (Date.now() - lastErrorRenew.current < RENEW_ON_ERROR_MS) return;
    lastErrorRenew.current = Date.now();
    setGeneration((g) => g + 1);
  }, []);

  return { files, failed, renew };
}
