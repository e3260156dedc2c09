import { useTranslation } from 'react-i18next';
import { InlineConfirm, useInlineConfirm } from '@/components/inline-confirm';

/** A member's Remove, asked inline; focus goes to Keep, and back to Remove when the question closes. */
export function RemoveMember({ name, busy, onRemove }: { name: string; busy: boolean; onRemove: () => Promise<void> }) {
  const { t } = useTranslation('teams');
  const confirm = useInlineConfirm();
  if (!confirm.open) {
    return (
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        ref={confirm.triggerRef}
        onClick={confirm.ask}
        aria-label={`${t('members.remove')} ${name}`}
      >
        {t('members.remove')}
      </button>
    );
  }
  return (
    <InlineConfirm
      className="tm-actions tm-confirm"
      small
      question={t('members.removeConfirm', { name })}
      confirmLabel={t('members.remove')}
      confirmClassName="btn btn-danger btn-sm"
      cancelLabel={t('members.keep')}
      busy={busy}
      onConfirm={() => void onRemove().then(confirm.close)}
      onCancel={confirm.close}
      testId="teams-remove-confirm"
    />
  );
}
