import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { DoneIcon } from '@/components/send-icons';
import { CopyLinkBox } from './copy-link-box';

interface DoneViewProps {
  readonly link: string;
  /** mailed recipients, in order; empty for a link send */
  readonly recipients: readonly string[];
  readonly signedIn: boolean;
  /** an end-to-end encrypted send: how its key travels (`link` carries it in its fragment) */
  readonly sealed?: 'link' | 'passphrase' | undefined;
  onSendAnother(): void;
  onKeepFiles(): void;
}

/** 'You're all done!' (spec §2, §4): the link to copy, who was mailed, and what next. */
export function DoneView({ link, recipients, signedIn, sealed, onSendAnother, onKeepFiles }: DoneViewProps) {
  const { t } = useTranslation();
  const id = useId();

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
      <CopyLinkBox link={link} testIds={{ input: 'done-link', copy: 'copy-link' }} />
      {sealed && (
        <p className="qs-hint" data-testid="done-e2e-note">
          {sealed === 'link' ? t('send.e2e.doneLink') : t('send.e2e.donePassphrase')}
        </p>
      )}
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
