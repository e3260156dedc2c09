import { useCallback, useEffect, useState } from 'react';
import { CONTACT_SEARCH_MAX, type ContactListResponse } from '@domain/contacts-api';
import { fetchContacts } from './api/contacts-api';
import { useContactErrorText } from './contact-errors';

/** How long typing pauses before the search is sent. */
export const SEARCH_DEBOUNCE_MS = 250;
/** Rows drawn at first (and added by each "Show more"); the account keeps up to MAX_CONTACTS. */
export const ROWS_PER_PAGE = 100;

/**
 * The contacts list and its search: what is typed is sent once typing pauses, each answer
 * shows its first page of rows, and the last rows stay on screen while a new answer loads or
 * when it fails (then `loadError` says why, and `reload` asks again).
 */
export function useContactList() {
  const errorText = useContactErrorText();
  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [list, setList] = useState<ContactListResponse | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  const [shown, setShown] = useState(ROWS_PER_PAGE);

  useEffect(() => {
    const next = typed.trim().slice(0, CONTACT_SEARCH_MAX);
    if (next === q) return;
    const timer = setTimeout(() => setQ(next), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [typed, q]);

  useEffect(() => {
    const abort = new AbortController();
    setLoadError(null);
    fetchContacts(q, abort.signal)
      .then((answer) => {
        setList(answer);
        setShown(ROWS_PER_PAGE);
      })
      .catch((err: unknown) => {
        if (!abort.signal.aborted) setLoadError(errorText(err));
      });
    return () => abort.abort();
  }, [q, reloads, errorText]);

  const reload = useCallback(() => setReloads((n) => n + 1), []);
  const showMore = useCallback(() => setShown((n) => n + ROWS_PER_PAGE), []);
  return { typed, setTyped, q, list, loadError, reload, shown, showMore };
}
