import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ListHeader, ListSearch } from '@/components/list-header';
import { CONTACT_SEARCH_MAX, type ContactRow } from '@domain/contacts-api';
import { usePageTitle } from '@/lib/use-page-title';
import type { Notice } from '../notice';
import { useContactList } from '../use-contact-list';
import { AddContactForm } from './add-contact-form';
import { ContactsEmpty } from './contacts-empty';
import { ContactsTable } from './contacts-table';
import { CsvTools } from './csv-tools';
import { EditContactDialog } from './edit-contact-dialog';
import { RemoveContactDialog } from './remove-contact-dialog';
import '../contacts.css';

/**
 * /dash/contacts (spec §2, §3 Contact, §5): the signed-in user's contacts with a search, an add
 * form, edit and remove dialogs, CSV import (with what each row did) and export. Recipients of
 * sends appear here by themselves; the send form suggests these contacts.
 */
export function ContactsPage() {
  const { t } = useTranslation('contacts');
  const headingId = useId();
  const searchId = useId();
  usePageTitle(t('title'));

  const { typed, setTyped, q, list, loadError, reload, shown, showMore } = useContactList();
  const [notice, setNotice] = useState<Notice>(null);
  const [editing, setEditing] = useState<ContactRow | null>(null);
  const [removing, setRemoving] = useState<ContactRow | null>(null);
  /** the row to focus after a dialog closed or a row went away */
  const focusAfter = useRef<string | null>(null);

  // After an edit or removal the focus goes back to a row's button (or the search box).
  useEffect(() => {
    const target = focusAfter.current;
    if (!target || !list || editing || removing) return;
    focusAfter.current = null;
    const button =
      document.querySelector<HTMLElement>(`[data-contact-row="${CSS.escape(target)}"] button`) ??
      document.getElementById(searchId);
    button?.focus();
  }, [list, editing, removing, searchId]);

  const rows = list?.contacts ?? [];

  return (
    <div className="container dash-page ct-page">
      <ListHeader headingId={headingId} title={t('title')} lead={t('lead')}>
        <ListSearch
          id={searchId}
          label={t('searchLabel')}
          labelClassName="ct-label"
          placeholder={t('searchPlaceholder')}
          maxLength={CONTACT_SEARCH_MAX}
          value={typed}
          onChange={setTyped}
          testId="contacts-search"
        />
      </ListHeader>

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

      <p
        className={`ct-notice${notice ? ` ct-notice-${notice.kind}` : ''}`}
        role="status"
        data-testid="contacts-notice"
      >
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
          <ContactsEmpty q={q} onClear={() => setTyped('')} />
        ) : (
          <ContactsTable
            rows={rows}
            total={list.total}
            max={list.max}
            q={q}
            shown={shown}
            onShowMore={showMore}
            onEdit={setEditing}
            onRemove={setRemoving}
          />
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
