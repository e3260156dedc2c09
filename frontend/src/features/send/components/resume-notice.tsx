import { useTranslation } from 'react-i18next';

/** The picked files continue an unfinished upload: the offer to resume it. */
export function ResumeNotice({ onResume }: { onResume(): void }) {
  const { t } = useTranslation();
  return (
    <div className="qs-resume" role="status">
      <div>
        <p className="qs-resume-title">{t('send.form.resumeTitle')}</p>
        <p className="qs-hint">{t('send.form.resumeBody')}</p>
      </div>
      <button type="button" className="btn btn-ghost btn-sm" onClick={onResume} data-testid="resume-button">
        {t('send.form.resumeAction')}
      </button>
    </div>
  );
}
