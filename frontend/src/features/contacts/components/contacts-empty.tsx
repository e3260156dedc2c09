import { useTranslation } from 'react-i18next';

/** No contacts: none found for the search (and Clear), or none at all yet. */
export function ContactsEmpty({ q, onClear }: { q: string; onClear: () => void }) {
  const { t } = useTranslation('contacts');
  return (
    <div className="ct-empty" data-testid="contacts-empty">
      {q ? (
        <>
          <p>{t('empty.search', { q })}</p>
          <button type="button" className="btn btn-ghost btn-sm" onClick={onClear}>
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
  );
}
