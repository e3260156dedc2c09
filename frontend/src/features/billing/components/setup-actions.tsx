import { useTranslation } from 'react-i18next';

/** What a card setup form is given: the SetupIntent's secret, and what follows its confirmation. */
export interface SetupProps {
  readonly clientSecret: string;
  onConfirmed(paymentMethodId: string): Promise<void>;
  onCancel(): void;
  errorWords(err: unknown): string;
}

/** Save (busy while the card is confirmed) and Back. */
export function SetupActions({ busy, onCancel }: { readonly busy: boolean; onCancel(): void }) {
  const { t } = useTranslation('billing');
  return (
    <div className="bl-actions">
      <button
        type="submit"
        className="btn btn-primary"
        disabled={busy}
        aria-busy={busy}
        data-testid="replace-card-save"
      >
        {busy ? t('card.saving') : t('card.save')}
      </button>
      <button type="button" className="btn btn-ghost" disabled={busy} onClick={onCancel}>
        {t('dialog.back')}
      </button>
    </div>
  );
}
