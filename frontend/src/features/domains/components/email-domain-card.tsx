import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { DomainSettings } from '@domain/domains-api';
import { useDomainAction } from '../use-domain-action';
import { EMAIL_POLL_MS, addEmailDomain, checkEmailDomain, removeEmailDomain } from '../domains-api';
import { AddDomainForm } from './add-domain-form';
import { DomainActions } from './domain-actions';
import { RecordsTable } from './records-table';
import { UpgradeNote } from './upgrade-note';

/** The sender email domain: add it, its DKIM records (asked again until SES decides), remove it. */
export function EmailDomainCard({
  settings,
  setSettings,
}: {
  settings: DomainSettings;
  setSettings: (s: DomainSettings) => void;
}) {
  const { t } = useTranslation('domains');
  const ids = useId();
  const { busy, error, run } = useDomainAction(setSettings);
  const e = settings.emailDomain;
  const pending = e !== null && e.pmDomain.DKIMUpdateStatus !== 'SUCCESS' && e.pmDomain.DKIMUpdateStatus !== 'FAILED';

  // SES verifies on its own schedule: ask again while the page is open and visible.
  useEffect(() => {
    if (!pending) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') checkEmailDomain().then(setSettings, () => undefined);
    }, EMAIL_POLL_MS);
    return () => clearInterval(timer);
  }, [pending, setSettings]);

  return (
    <section className="card" aria-labelledby={`${ids}-email`} data-testid="email-domain-card">
      <h2 id={`${ids}-email`}>{t('domains.email.title')}</h2>
      <p className="muted">{t('domains.email.lead')}</p>
      {!settings.plan.emailDomain && !e ? (
        <UpgradeNote text={t('domains.email.upgrade')} plan="business" />
      ) : !e ? (
        <AddDomainForm
          label={t('domains.email.label')}
          button={t('domains.email.add')}
          busy={busy !== null}
          onAdd={(v) => run('add', () => addEmailDomain(v))}
          testId="email-domain"
        />
      ) : (
        <>
          <p className="domains-head">
            <strong>{e.domain}</strong>
            <span
              className={`domains-status domains-status-${e.pmDomain.DKIMUpdateStatus === 'SUCCESS' ? 'verified' : pending ? 'pending' : 'failed'}`}
              data-testid="email-domain-status"
              data-status={e.pmDomain.DKIMUpdateStatus}
            >
              <span className="sr-only">{t('domains.status.label')}: </span>
              {t(`domains.email.status.${e.pmDomain.DKIMUpdateStatus}`)}
            </span>
          </p>
          {e.pmDomain.DKIMUpdateStatus === 'SUCCESS' ? (
            <p>{t('domains.email.from', { address: e.fromAddress })}</p>
          ) : (
            <>
              <RecordsTable
                records={e.records}
                caption={t('domains.email.recordsTitle')}
                testId="email-domain-records"
              />
              <p className="dash-hint">{t('domains.email.until')}</p>
            </>
          )}
          <DomainActions
            testId="email-domain"
            busy={busy}
            canCheck={pending}
            onCheck={() => run('check', checkEmailDomain)}
            removeLabel={t('domains.email.remove')}
            removeConfirm={t('domains.email.removeConfirm', { domain: e.domain })}
            onRemove={() => run('remove', removeEmailDomain)}
          />
        </>
      )}
      <p className="dash-error" role="alert" data-testid="email-domain-error">
        {error ?? ''}
      </p>
    </section>
  );
}
