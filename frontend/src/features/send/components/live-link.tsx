import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useCopyLink } from '@/lib/use-copy-link';
import { CopyIcon } from '@/components/send-icons';

/**
 * While the upload runs (decision 0074): a link send's link, to copy and share now, or the note
 * that an email send's recipients were mailed at the start. Recipients see files as they arrive.
 */
export function LiveLink({ link, mailed }: { link: string; mailed: boolean }) {
  const { t } = useTranslation();
  const id = useId();
  const { box, copied, copy } = useCopyLink(link);
  if (mailed) {
    return (
      <p className="qs-live-note" data-testid="live-mailed">
        {t('send.live.mailedNow')}
      </p>
    );
  }
  return (
    <div className="qs-live" data-testid="live-link">
      <label htmlFor={`${id}-link`} className="qs-label">
        {t('send.done.linkLabel')}
      </label>
      <div className="qs-linkbox">
        <input
          ref={box}
          id={`${id}-link`}
          className="qs-input"
          type="text"
          readOnly
          value={link}
          onFocus={(e) => e.target.select()}
          data-testid="live-link-input"
        />
        <button type="button" className="btn btn-primary btn-sm" onClick={copy} data-testid="live-copy-link">
          <CopyIcon /> {copied ? t('send.done.copied') : t('send.done.copy')}
        </button>
      </div>
      <p className="qs-live-note">{t('send.live.shareNow')}</p>
      <p className="sr-only" role="status">
        {copied ? t('send.done.copied') : ''}
      </p>
    </div>
  );
}
