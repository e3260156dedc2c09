import { useTranslation } from 'react-i18next';
import { XIcon } from '@/components/send-icons';

/** The recipients added so far, each with its remove button. */
export function RecipientChips({
  recipients,
  onRemove,
}: {
  recipients: readonly string[];
  onRemove(email: string): void;
}) {
  const { t } = useTranslation();
  if (recipients.length === 0) return null;
  return (
    <ul className="qs-chip-list" aria-label={t('send.form.recipientsLabel')}>
      {recipients.map((email) => (
        <li key={email} className="qs-chip">
          <span>{email}</span>
          <button
            type="button"
            className="qs-chip-remove"
            aria-label={t('send.form.removeRecipient', { email })}
            onClick={() => onRemove(email)}
          >
            <XIcon width={12} height={12} />
          </button>
        </li>
      ))}
    </ul>
  );
}
