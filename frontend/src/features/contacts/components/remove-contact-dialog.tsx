import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type { ContactRow } from '@domain/contacts-api';
import { removeContact } from '../api/contacts-api';
import { useContactAction } from '../use-contact-action';
import { ContactDialog } from './contact-dialog';

/** "Remove this contact?" (an alertdialog) with the address, Remove and Cancel. */
export function RemoveContactDialog({ contact, onClose }: { contact: ContactRow; onClose(removed: boolean): void }) {
  const { t } = useTranslation('contacts');
  const action = useContactAction();
  const problem = action.error;
  const removed = useRef(false);

  const confirm = (dialog: HTMLDialogElement | null) =>
    action.run(async () => {
      await removeContact(contact.email);
      removed.current = true;
      dialog?.close();
    });

  return (
    <ContactDialog
      title={t('remove.title')}
      testId="contact-remove-dialog"
      alert
      onDismiss={() => onClose(removed.current)}
    >
      {(ids) => (
        <>
          <p id={ids.body}>{t('remove.body', { email: contact.email })}</p>
          {problem && (
            <p className="ct-problem" role="alert">
              {problem}
            </p>
          )}
          <div className="dash-modal-actions ct-dialog-actions">
            {/* Cancel first: the dialog's first focus lands on the harmless choice. */}
            <button
              type="button"
              className="btn btn-ghost"
              onClick={(e) => e.currentTarget.closest('dialog')?.close()}
              data-testid="contact-remove-cancel"
            >
              {t('dialog.cancel')}
            </button>
            <button
              type="button"
              className="btn btn-primary ct-danger-solid"
              disabled={action.busy}
              onClick={(e) => void confirm(e.currentTarget.closest('dialog'))}
              data-testid="contact-remove-confirm"
            >
              {action.busy ? t('remove.removing') : t('remove.confirm')}
            </button>
          </div>
        </>
      )}
    </ContactDialog>
  );
}
