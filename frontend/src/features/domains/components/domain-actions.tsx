import { useTranslation } from 'react-i18next';
import { InlineConfirm, useInlineConfirm } from '@/components/inline-confirm';

/**
 * "Check now" while the records are not verified yet, and removal after an inline confirmation
 * (the question, then Remove or Keep; focus moves to the answer and back): one domain's actions.
 */
export function DomainActions(props: {
  testId: string;
  busy: string | null;
  canCheck: boolean;
  onCheck: () => void;
  removeLabel: string;
  removeConfirm: string;
  onRemove: () => void;
}) {
  const { t } = useTranslation('domains');
  const { testId, busy } = props;
  const confirm = useInlineConfirm();
  if (confirm.open) {
    return (
      <InlineConfirm
        className="domains-actions domains-confirm"
        question={props.removeConfirm}
        confirmLabel={props.removeLabel}
        cancelLabel={t('domains.keep')}
        busy={busy !== null}
        onConfirm={() => {
          confirm.close();
          props.onRemove();
        }}
        onCancel={confirm.close}
        testId={`${testId}-confirm`}
        confirmTestId={`${testId}-remove-confirm`}
        cancelTestId={`${testId}-remove-cancel`}
      />
    );
  }
  return (
    <div className="domains-actions">
      {props.canCheck && (
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy !== null}
          onClick={props.onCheck}
          data-testid={`${testId}-check`}
        >
          {busy === 'check' ? t('domains.custom.checking') : t('domains.custom.checkNow')}
        </button>
      )}
      <button
        type="button"
        className="btn btn-ghost"
        ref={confirm.triggerRef}
        disabled={busy !== null}
        onClick={confirm.ask}
        data-testid={`${testId}-remove`}
      >
        {props.removeLabel}
      </button>
    </div>
  );
}
