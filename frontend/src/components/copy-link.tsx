import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useCopyLink } from '@/lib/use-copy-link';

/** A link in a read-only box with a copy button that answers 'Link Copied!' (spec §2). */
export function CopyLink({ link, label, testId = 'transfer-link' }: { link: string; label?: string; testId?: string }) {
  const { t } = useTranslation('transfers');
  const id = useId();
  const { box, copied, copy } = useCopyLink(link);

  return (
    <div className="tr-copy">
      <label htmlFor={id} className="tr-label">
        {label ?? t('modal.linkLabel')}
      </label>
      <div className="tr-copy-row">
        <input
          ref={box}
          id={id}
          className="field-input"
          type="text"
          readOnly
          value={link}
          onFocus={(e) => e.target.select()}
          data-testid={testId}
        />
        <button type="button" className="btn btn-primary btn-sm" onClick={copy} data-testid={`${testId}-copy`}>
          {copied ? t('modal.copied') : t('modal.copy')}
        </button>
      </div>
      <p className="sr-only" role="status">
        {copied ? t('modal.copied') : ''}
      </p>
    </div>
  );
}
