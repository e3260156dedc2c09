import { useTranslation } from 'react-i18next';
import { CopyLinkBox } from './copy-link-box';

/**
 * While the upload runs (decision 0074): a link send's link, to copy and share now, or the note
 * that an email send's recipients were mailed at the start. Recipients see files as they arrive.
 */
export function LiveLink({ link, mailed, sealed }: { link: string; mailed: boolean; sealed?: boolean }) {
  const { t } = useTranslation();
  if (mailed) {
    return (
      <p className="qs-live-note" data-testid="live-mailed">
        {t('send.live.mailedNow')}
      </p>
    );
  }
  return (
    <div className="qs-live" data-testid="live-link">
      <CopyLinkBox link={link} testIds={{ input: 'live-link-input', copy: 'live-copy-link' }} />
      <p className="qs-live-note">{t('send.live.shareNow')}</p>
      {sealed && <p className="qs-live-note">{t('send.e2e.linkNote')}</p>}
    </div>
  );
}
