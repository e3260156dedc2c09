/**
 * What the quick send and the file-request page share around one running upload: its handle,
 * the upload engine's lazy loader and the progress it starts from.
 */
import { useEffect, useRef, type RefObject } from 'react';
import { totalSize } from '@domain/file-filters';
import { importWithRetry } from '@/lib/import-with-retry';
import type { PickedFile } from './picked-files';
import type { UploadProgress } from './engine';

export interface ActiveUpload {
  readonly controller: AbortController;
  /** known once the transfer (or the request upload) exists on the server */
  transfer: { readonly id: string; readonly uploadToken: string } | null;
}

/** The upload engine loads when the first upload, resume or cancel needs it, not with the form. */
export function sendFlow() {
  return importWithRetry(() => import('./send-flow'));
}

export function startingProgress(files: readonly PickedFile[], resuming: boolean): UploadProgress {
  return {
    bytesDone: 0,
    bytesTotal: totalSize(files),
    filesDone: 0,
    filesTotal: files.length,
    speedBps: 0,
    etaMs: null,
    phase: resuming ? 'resuming' : 'getting-ready',
    tryNumber: 1,
  };
}

/**
 * What an upload card does around its steps: a new step takes focus at its heading (unless the
 * step put focus inside the card itself, as the code box does); leaving the page mid-upload asks
 * first (the checkpoint stays, so it can resume); unmounting stops the upload without cancelling
 * it on the server.
 */
export function useUploadCardSteps(
  step: string,
  card: RefObject<HTMLElement | null>,
  active: RefObject<ActiveUpload | null>,
): void {
  const shownStep = useRef(step);
  useEffect(() => {
    if (shownStep.current === step) return;
    shownStep.current = step;
    const root = card.current;
    if (root && !root.contains(document.activeElement)) root.querySelector<HTMLElement>('[data-step-heading]')?.focus();
  }, [step]); // eslint-disable-line react-hooks/exhaustive-deps -- refs are stable

  useEffect(() => {
    if (step !== 'uploading') return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [step]);

  useEffect(() => () => active.current?.controller.abort(), []); // eslint-disable-line react-hooks/exhaustive-deps
}
