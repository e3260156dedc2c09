import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { DnsRecordView, RecordProblem } from '@domain/custom-domains';
import type { DomainSettings } from '@domain/domains-api';
import { useDomainAction } from '../use-domain-action';
import { addCustomDomain, checkCustomDomain, removeCustomDomain } from '../domains-api';
import { AddDomainForm } from './add-domain-form';
import { DomainActions } from './domain-actions';
import { RecordsTable } from './records-table';
import { UpgradeNote } from './upgrade-note';

function problemText(
  t: (key: never, params?: Record<string, string>) => string,
  p: RecordProblem,
  records: readonly DnsRecordView[],
): string {
  const record = records.find((r) => r.type === (p.record === 'cname' ? 'CNAME' : 'TXT'));
  const params = { name: record?.name ?? '', found: p.found ?? '' };
  const key = `domains.problem.${p.record}${p.state === 'missing' ? 'Missing' : 'Wrong'}`;
  return t(key as never, params);
}

/** The custom link domain: add it, the DNS records to create, Check now, remove it. */
export function CustomDomainCard({
  settings,
  setSettings,
}: {
  settings: DomainSettings;
  setSettings: (s: DomainSettings) => void;
}) {
  const { t, i18n } = useTranslation('domains');
  const ids = useId();
  const { busy, error, run } = useDomainAction(setSettings);
  const d = settings.customDomain;
  const when = (ms: number) =>
    new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { dateStyle: 'medium', timeStyle: 'short' }).format(ms);
  return (
    <section className="card" aria-labelledby={`${ids}-custom`} data-testid="custom-domain-card">
      <h2 id={`${ids}-custom`}>{t('domains.custom.title')}</h2>
      <p className="muted">{t('domains.custom.lead')}</p>
      {!settings.plan.customDomain && !d ? (
        <UpgradeNote text={t('domains.custom.upgrade')} plan="pro" />
      ) : !d ? (
        <AddDomainForm
          label={t('domains.custom.label')}
          button={t('domains.custom.add')}
          busy={busy !== null}
          onAdd={(v) => run('add', () => addCustomDomain(v))}
          testId="custom-domain"
        />
      ) : (
        <>
          <p className="domains-head">
            <strong data-testid="custom-domain-name">{d.displayDomain}</strong>
            <span
              className={`domains-status domains-status-${d.domain_status}`}
              data-testid="custom-domain-status"
              data-status={d.domain_status}
            >
              <span className="sr-only">{t('domains.status.label')}: </span>
              {t(`domains.status.${d.domain_status}`)}
            </span>
          </p>
          {d.domain_status === 'verified' ? (
            <p data-testid="custom-domain-live">{t('domains.custom.live', { example: `${d.origin}/w/…` })}</p>
          ) : (
            <>
              <RecordsTable
                records={d.records}
                caption={t('domains.custom.recordsTitle')}
                testId="custom-domain-records"
              />
              {d.problems.length > 0 && (
                <ul className="domains-problems" data-testid="custom-domain-problems">
                  {d.problems.map((p) => (
                    <li key={`${p.record}-${p.state}`}>{problemText(t as never, p, d.records)}</li>
                  ))}
                </ul>
              )}
              <p className="dash-hint">
                {d.domain_status === 'failed' ? t('domains.custom.failedHint') : t('domains.custom.auto')}
              </p>
              {d.checkedAt !== null && (
                <p className="dash-hint">{t('domains.custom.lastChecked', { time: when(d.checkedAt) })}</p>
              )}
            </>
          )}
          <DomainActions
            testId="custom-domain"
            busy={busy}
            canCheck={d.domain_status !== 'verified'}
            onCheck={() => run('check', checkCustomDomain)}
            removeLabel={t('domains.custom.remove')}
            removeConfirm={t('domains.custom.removeConfirm', { domain: d.displayDomain })}
            onRemove={() => run('remove', removeCustomDomain)}
          />
        </>
      )}
      <p className="dash-error" role="alert" data-testid="custom-domain-error">
        {error ?? ''}
      </p>
    </section>
  );
}
