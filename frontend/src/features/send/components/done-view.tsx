import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useCopyLink } from '@/lib/use-copy-link';
import { CopyIcon, DoneIcon } from '@/components/send-icons';

interface DoneViewProps {
  readonly link: string;
  /** mailed recipients, in order; empty for a link send */
  readonly recipients: readonly string[];
  readonly signedIn: boolean;
  onSendAnother(): void;
  onKeepFiles(): void;
}

/** 'You're all done!' (spec §2, §4): the link to copy, who was mailed, and what next. */
export function DoneView({ link, recipients, signedIn, onSendAnother, onKeepFiles }: DoneViewProps) {
  const { t } = useTranslation();
  const id = useId();
  const { box: linkBox, copied, copy } = useCopyLink(link);

  const [first, ...rest] = recipients;
  return (
    <section className="qs-done" aria-labelledby={`${id}-title`}>
      <DoneIcon className="qs-done-icon" />
      <h2 id={`${id}-title`} className="qs-title qs-center" tabIndex={-1} data-step-heading>
        {t('send.done.title')}
      </h2>
      {first && (
        <p className="qs-lead qs-center" data-testid="sent-to">
          {rest.length > 0 ? t('send.done.sentToMore', { first, more: rest.length }) : t('send.done.sentTo', { first })}
        </p>
      )}
      <label htmlFor={`${id}-link`} className="qs-label">
        {t('send.done.linkLabel')}
      </label>
      <div className="qs-linkbox">
        <input
          ref={linkBox}
          id={`${id}-link`}
          className="qs-input"
          type="text"
          readOnly
          value={link}
          onFocus={(e) => e.target.select()}
          data-testid="done-link"
        />
        <button type="button" className="btn btn-primary btn-sm" onClick={copy} data-testid="copy-link">
          <CopyIcon /> {copied ? t('send.done.copied') : t('send.done.copy')}
        </button>
      </div>
      <p className="sr-only" role="status">
        {copied ? t('send.done.copied') : ''}
      </p>
      {signedIn ? (
        <button type="button" className="btn btn-ghost btn-block" onClick={onSendAnother} data-testid="send-another">
          {t('send.done.sendAnother')}
        </button>
      ) : (
        <button type="button" className="btn btn-ghost btn-block" onClick={onKeepFiles} data-testid="keep-files">
          {t('send.done.keepFiles')}
        </button>
      )}
    </section>
  );
}
