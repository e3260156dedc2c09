import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useCopyLink } from '@/lib/use-copy-link';
import { CopyIcon } from '@/components/send-icons';

/** A transfer's link, labelled, selected on focus, with its copy button and the copy's announcement. */
export function CopyLinkBox({ link, testIds }: { link: string; testIds: { input: string; copy: string } }) {
  const { t } = useTranslation();
  const id = useId();
  const { box, copied, copy } = useCopyLink(link);
  return (
    <>
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
          data-testid={testIds.input}
        />
        <button type="button" className="btn btn-primary btn-sm" onClick={copy} data-testid={testIds.copy}>
          <CopyIcon /> {copied ? t('send.done.copied') : t('send.done.copy')}
        </button>
      </div>
      <p className="sr-only" role="status">
        {copied ? t('send.done.copied') : ''}
      </p>
    </>
  );
}
