import { useTranslation } from 'react-i18next';
import type { DownloadView } from '@domain/transfer-api';
import { transferTitle } from '@/features/downloads/transfer-title';
import { formatSize } from '@/lib/format-size';

/** Who sent the transfer, its title and size, and the sender's message. */
export function DownloadHead({ view }: { view: DownloadView }) {
  const { t, i18n } = useTranslation();
  const sender = view.senderName || view.senderEmail;
  const size = formatSize(view.totalBytes, i18n.language);
  return (
    <>
      <header className="download-head">
        <p className="download-greeting">
          {view.recipientEmail ? t('download.greetingNamed', { email: view.recipientEmail }) : t('download.greeting')}{' '}
          {sender ? t('download.sentBy', { sender }) : t('download.sentAnonymous')}
        </p>
        <h1 className="download-title">{transferTitle(view, t)}</h1>
        <p className="download-summary" data-testid="download-summary">
          {view.fileCount === 1
            ? t('download.summaryOne', { size })
            : t('download.summaryMany', { n: view.fileCount, size })}
        </p>
      </header>
      {view.message.trim() !== '' && (
        <figure className="download-message">
          <figcaption>{t('download.messageLabel')}</figcaption>
          <blockquote>{view.message}</blockquote>
        </figure>
      )}
    </>
  );
}
