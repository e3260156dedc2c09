import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CONTACT_FIELD_MAX, CONTACT_SEARCH_MAX, CONTACTS_CSV_FILENAME, CSV_IMPORT_MAX_BYTES, contactEmailSchema, type ContactImportResult, type ContactListResponse, type ContactRow } from '@domain/contacts-api';
import { TableHead } from '@/components/table-head';
import { problemKeyOf } from '@/i18n/error-keys';
import { formatCount } from '@/lib/format';
import { usePageTitle } from '@/lib/use-page-title';
import { addContact, exportContacts, fetchContacts, importContacts } from '../api/contacts-api';
import { useContactErrorText as useErrorText } from '../contact-errors';
import { EditContactDialog, RemoveContactDialog } from './contact-dialogs';
import '../contacts.css';

/** How long typing pauses before the search is sent. */
export const SEARCH_DEBOUNCE_MS = 250;
/** Rows drawn at first (and added by each "Show more"); the account keeps up to MAX_CONTACTS. */
export const ROWS_PER_PAGE = 100;

type Notice = { readonly kind: 'success' | 'error'; readonly text: string } | null;

/**
 * /dash/contacts (spec §2, §3 Contact, §5): the signed-in user's contacts with a search, an add
 * form, edit and remove dialogs, CSV import (with what each row did) and export. Recipients of
 * sends appear here by themselves; the send form suggests these contacts.
 */
export function ContactsPage() {
  const { t, i18n } = useTranslation('contacts');
  const lng = i18n.resolvedLanguage ?? 'en';
  const errorText = useErrorText();
  const headingId = useId();
  const searchId = useId();
  usePageTitle(t('title'));

  const [typed, setTyped] = useState('');
  const [q, setQ] = useState('');
  const [list, setList] = useState<ContactListResponse | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [reloads, setReloads] = useState(0);
  const [shown, setShown] = useState(ROWS_PER_PAGE);
  const [notice, setNotice] = useState<Notice>(null);
  const [editing, setEditing] = useState<ContactRow | null>(null);
  const [removing, setRemoving] = useState<ContactRow | null>(null);
  /** the row to focus after a dialog closed or a row went away */
  const focusAfter = useRef<string | null>(null);

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

  // After an edit or removal the focus goes back to a row's button (or the search box).
  useEffect(() => {
    const target = focusAfter.current;
    if (!target || !list || editing || removing) return;
    focusAfter.current = null;
    const button = document.querySelector<HTMLElement>(`[data-contact-row="${CSS.escape(target)}"] button`) ?? document.getElementById(searchId);
    button?.focus();
  }, [list, editing, removing, searchId]);

  const rows = list?.contacts ?? [];
  const visible = rows.slice(0, shown);

  return (
    <div className="container dash-page ct-page">
      <header className="list-header">
        <div>
          <h1 id={headingId}>{t('title')}</h1>
          <p className="muted">{t('lead')}</p>
        </div>
        <div className="list-search">
          <label htmlFor={searchId} className="ct-label">
            {t('searchLabel')}
          </label>
          <input
            id={searchId}
            type="search"
            className="field-input"
            value={typed}
            maxLength={CONTACT_SEARCH_MAX}
            placeholder={t('searchPlaceholder')}
            onChange={(e) => setTyped(e.target.value)}
            data-testid="contacts-search"
          />
        </div>
      </header>

      <div className="ct-tools">
        <AddContactForm
          onAdded={(contact) => {
            setNotice({ kind: 'success', text: t('add.added', { email: contact.email }) });
            reload();
          }}
        />
        <CsvTools
          onImported={() => {
            setNotice(null);
            reload();
          }}
          onNotice={setNotice}
        />
      </div>

      <p className={`ct-notice${notice ? ` ct-notice-${notice.kind}` : ''}`} role="status" data-testid="contacts-notice">
        {notice?.text ?? ''}
      </p>

      <section className="card ct-card" aria-labelledby={headingId}>
        {loadError && (
          <div className="ct-notice ct-notice-error" role="alert">
            <span>
              {t('loadFailed')} {loadError}
            </span>
            <button type="button" className="btn btn-ghost btn-sm" onClick={reload}>
              {t('retry')}
            </button>
          </div>
        )}
        {!list ? (
          !loadError && <p className="ct-empty">{t('loading')}</p>
        ) : rows.length === 0 ? (
          <div className="ct-empty" data-testid="contacts-empty">
            {q ? (
              <>
                <p>{t('empty.search', { q })}</p>
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => setTyped('')}>
                  {t('empty.clear')}
                </button>
              </>
            ) : (
              <>
                <p className="ct-empty-title">{t('empty.none')}</p>
                <p className="muted">{t('empty.noneHint')}</p>
              </>
            )}
          </div>
        ) : (
          <>
            <div className="ct-table-wrap">
              <table className="ct-table" data-testid="contacts-table">
                <caption className="sr-only">{t('table.caption')}</caption>
                <TableHead columns={[t('table.email'), t('table.name'), t('table.company'), t('table.lastSent'), <span className="sr-only">{t('table.actions')}</span>]} />
                <tbody>
                  {visible.map((c) => (
                    <tr key={c.email.toLowerCase()} data-contact-row={c.email.toLowerCase()} data-testid="contact-row">
                      <td className="ct-email">{c.email}</td>
                      <td>{c.name ?? ''}</td>
                      <td>{c.company ?? ''}</td>
                      <td className="ct-muted">{c.lastUsedAt ? new Intl.DateTimeFormat(lng, { dateStyle: 'medium' }).format(c.lastUsedAt) : t('table.never')}</td>
                      <td className="ct-actions">
                        <button type="button" className="btn btn-ghost btn-sm" aria-label={t('table.editLabel', { email: c.email })} onClick={() => setEditing(c)} data-testid="contact-edit">
                          {t('table.edit')}
                        </button>
                        <button type="button" className="btn btn-ghost btn-sm ct-danger" aria-label={t('table.removeLabel', { email: c.email })} onClick={() => setRemoving(c)} data-testid="contact-remove">
                          {t('table.remove')}
                        </button>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            <div className="ct-more">
              <p className="muted" data-testid="contacts-count">
                {q
                  ? t('showingMatches', { shown: formatCount(visible.length, lng), matches: formatCount(rows.length, lng), total: formatCount(list.total, lng) })
                  : t('showing', { shown: formatCount(visible.length, lng), total: formatCount(list.total, lng), max: formatCount(list.max, lng) })}
              </p>
              {rows.length > shown && (
                <button type="button" className="btn btn-ghost btn-sm" onClick={() => setShown((n) => n + ROWS_PER_PAGE)}>
                  {t('showMore')}
                </button>
              )}
            </div>
          </>
        )}
      </section>

      {editing && (
        <EditContactDialog
          contact={editing}
          onClose={(saved) => {
            focusAfter.current = (saved ?? editing).email.toLowerCase();
            setEditing(null);
            if (saved) {
              setNotice({ kind: 'success', text: t('edit.saved', { email: saved.email }) });
              reload();
            }
          }}
        />
      )}
      {removing && (
        <RemoveContactDialog
          contact={removing}
          onClose={(removed) => {
            focusAfter.current = removed ? '' : removing.email.toLowerCase();
            setRemoving(null);
            if (removed) {
              setNotice({ kind: 'success', text: t('remove.removed', { email: removing.email }) });
              reload();
            }
          }}
        />
      )}
    </div>
  );
}

/** The add form: email (required, checked as the server checks it), name and company. */
function AddContactForm({ onAdded }: { onAdded(contact: ContactRow): void }) {
  const { t } = useTranslation('contacts');
  const { t: tApp } = useTranslation();
  const errorText = useErrorText();
  const id = useId();
  const emailRef = useRef<HTMLInputElement>(null);
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [company, setCompany] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const parsed = contactEmailSchema.safeParse(email);
    if (!parsed.success) {
      setProblem(tApp(problemKeyOf(parsed.error.issues[0]?.message)));
      emailRef.current?.focus();
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const contact = await addContact({ email: parsed.data, ...(name.trim() ? { name } : {}), ...(company.trim() ? { company } : {}) });
      setEmail('');
      setName('');
      setCompany('');
      onAdded(contact);
      emailRef.current?.focus();
    } catch (err) {
      setProblem(errorText(err));
      emailRef.current?.focus();
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="card ct-add" onSubmit={(e) => void submit(e)} noValidate aria-labelledby={`${id}-title`} data-testid="contact-add-form">
      <h2 id={`${id}-title`} className="ct-subtitle">
        {t('add.title')}
      </h2>
      <div className="ct-add-fields">
        <div className="ct-field">
          <label htmlFor={`${id}-email`} className="ct-label">
            {t('fields.email')}
          </label>
          <input
            ref={emailRef}
            id={`${id}-email`}
            type="email"
            className="field-input"
            autoComplete="off"
            value={email}
            required
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? `${id}-problem` : undefined}
            onChange={(e) => setEmail(e.target.value)}
            data-testid="contact-add-email"
          />
        </div>
        <div className="ct-field">
          <label htmlFor={`${id}-name`} className="ct-label">
            {t('fields.name')} <span className="ct-optional">{t('fields.optional')}</span>
          </label>
          <input id={`${id}-name`} className="field-input" autoComplete="off" maxLength={CONTACT_FIELD_MAX} value={name} onChange={(e) => setName(e.target.value)} data-testid="contact-add-name" />
        </div>
        <div className="ct-field">
          <label htmlFor={`${id}-company`} className="ct-label">
            {t('fields.company')} <span className="ct-optional">{t('fields.optional')}</span>
          </label>
          <input id={`${id}-company`} className="field-input" autoComplete="off" maxLength={CONTACT_FIELD_MAX} value={company} onChange={(e) => setCompany(e.target.value)} data-testid="contact-add-company" />
        </div>
        <button type="submit" className="btn btn-primary ct-add-submit" disabled={busy} data-testid="contact-add-submit">
          {busy ? t('add.adding') : t('add.submit')}
        </button>
      </div>
      {problem && (
        <p id={`${id}-problem`} className="ct-problem" role="alert" data-testid="contact-add-problem">
          {problem}
        </p>
      )}
    </form>
  );
}

/** Import (a .csv file, its counts shown) and export (saved as contacts.csv). */
function CsvTools({ onImported, onNotice }: { onImported(result: ContactImportResult): void; onNotice(notice: Notice): void }) {
  const { t } = useTranslation('contacts');
  const errorText = useErrorText();
  const id = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const [importing, setImporting] = useState(false);
  const [exporting, setExporting] = useState(false);
  const [result, setResult] = useState<ContactImportResult | null>(null);

  const onFile = async (file: File | undefined) => {
    if (!file) return;
    setResult(null);
    if (file.size > CSV_IMPORT_MAX_BYTES) {
      onNotice({ kind: 'error', text: t('problems.csvTooLarge') });
      return;
    }
    setImporting(true);
    try {
      let text: string;
      try {
        text = await file.text();
      } catch {
        onNotice({ kind: 'error', text: t('problems.readFailed') });
        return;
      }
      const answer = await importContacts(text);
      setResult(answer);
      onImported(answer);
    } catch (err) {
      onNotice({ kind: 'error', text: errorText(err) });
    } finally {
      setImporting(false);
      // the same file may be picked again after a fix
      if (fileRef.current) fileRef.current.value = '';
    }
  };

  const onExport = async () => {
    setExporting(true);
    try {
      const csv = await exportContacts();
      const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = CONTACTS_CSV_FILENAME;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (err) {
      onNotice({ kind: 'error', text: errorText(err) });
    } finally {
      setExporting(false);
    }
  };

  const counts = result
    ? ([
        ['added', result.added],
        ['updated', result.updated],
        ['unchanged', result.unchanged],
        ['skipped', result.skippedWithoutEmail],
        ['invalid', result.invalid],
        ['duplicates', result.duplicates],
        ['overLimit', result.overLimit],
      ] as const).filter(([key, count]) => key === 'added' || count > 0)
    : [];

  return (
    <section className="card ct-csv" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="ct-subtitle">
        {t('csv.title')}
      </h2>
      <p className="muted ct-hint" id={`${id}-hint`}>
        {t('csv.hint')}
      </p>
      <div className="ct-csv-actions">
        <label className={`btn btn-ghost btn-sm ct-file${importing ? ' ct-busy' : ''}`}>
          {importing ? t('csv.importing') : t('csv.import')}
          <input
            ref={fileRef}
            type="file"
            accept=".csv,text/csv"
            className="ct-file-input"
            aria-describedby={`${id}-hint`}
            disabled={importing}
            onChange={(e) => void onFile(e.target.files?.[0])}
            data-testid="contacts-import-input"
          />
        </label>
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => void onExport()} disabled={exporting} data-testid="contacts-export">
          {exporting ? t('csv.exporting') : t('csv.export')}
        </button>
      </div>
      {result && (
        <div className="ct-result" role="status" data-testid="contacts-import-result">
          <p className="ct-result-title">{t('csv.resultTitle', { rows: result.rows })}</p>
          <ul>
            {counts.map(([key, count]) => (
              <li key={key} data-testid={`import-${key}`}>
                {t(`csv.counts.${key}`, { count })}
              </li>
            ))}
          </ul>
        </div>
      )}
    </section>
  );
}
