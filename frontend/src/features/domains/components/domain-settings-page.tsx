import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { DnsRecordView, RecordProblem } from '@domain/custom-domains';
import type { DomainSettings } from '@domain/domains-api';
import { paths } from '@/app/paths';
import { InlineConfirm, useInlineConfirm } from '@/components/inline-confirm';
import { LoadFailed } from '@/components/load-failed';
import { PageLoading } from '@/components/page-loading';
import { TableHead } from '@/components/table-head';
import { errorTextOf } from '@/i18n/error-keys';
import { useSession } from '@/lib/session/session-provider';
import { useLoad } from '@/lib/use-load';
import { usePageTitle } from '@/lib/use-page-title';
import {
  EMAIL_POLL_MS,
  addCustomDomain,
  addEmailDomain,
  checkCustomDomain,
  checkEmailDomain,
  fetchDomainSettings,
  removeCustomDomain,
  removeEmailDomain,
} from '../domains-api';
import '../domains.css';

type Busy = null | 'add' | 'check' | 'remove';

/** One call of the page: its answer replaces the settings; a refusal is said in the user's language. */
function useAction(setSettings: (s: DomainSettings) => void) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState<Busy>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (kind: Exclude<Busy, null>, call: () => Promise<DomainSettings>) => {
    setBusy(kind);
    setError(null);
    try {
      setSettings(await call());
    } catch (err) {
      const text = errorTextOf(err);
      setError(t(text.key, text.params));
    } finally {
      setBusy(null);
    }
  };
  return { busy, error, run };
}

function CopyButton({ value, what }: { value: string; what: string }) {
  const { t } = useTranslation('domains');
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      // Clipboard refused (permissions): the value stays selectable in the table.
    }
  };
  return (
    <button type="button" className="btn btn-ghost btn-sm" onClick={() => void copy()} aria-label={t('domains.records.copy', { what })}>
      {copied ? t('domains.records.copied') : t('domains.records.copy', { what: '' }).trim()}
    </button>
  );
}

function RecordsTable({ records, caption, testId }: { records: readonly DnsRecordView[]; caption: string; testId: string }) {
  const { t } = useTranslation('domains');
  return (
    <div className="domains-records-wrap">
      <table className="domains-records" data-testid={testId}>
        <caption>{caption}</caption>
        <TableHead columns={[t('domains.records.type'), t('domains.records.name'), t('domains.records.value')]} />
        <tbody>
          {records.map((r) => (
            <tr key={`${r.type} ${r.name}`} data-record-type={r.type}>
              <td>{r.type}</td>
              <td>
                <code data-testid="record-name">{r.name}</code> <CopyButton value={r.name} what={t('domains.records.name')} />
              </td>
              <td>
                <code data-testid="record-value">{r.value}</code> <CopyButton value={r.value} what={t('domains.records.value')} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function problemText(t: (key: never, params?: Record<string, string>) => string, p: RecordProblem, records: readonly DnsRecordView[]): string {
  const record = records.find((r) => r.type === (p.record === 'cname' ? 'CNAME' : 'TXT'));
  const params = { name: record?.name ?? '', found: p.found ?? '' };
  const key = `domains.problem.${p.record}${p.state === 'missing' ? 'Missing' : 'Wrong'}`;
  return t(key as never, params);
}

function UpgradeNote({ text, plan }: { text: string; plan: 'pro' | 'business' }) {
  const { t } = useTranslation('domains');
  return (
    <div className="domains-upgrade" data-testid={`domains-upgrade-${plan}`}>
      <p>{text}</p>
      <Link to={paths.account({ tab: 1, plan })} className="btn btn-primary btn-sm">
        {t('domains.upgrade')}
      </Link>
    </div>
  );
}

/**
 * "Check now" while the records are not verified yet, and removal after an inline confirmation
 * (the question, then Remove or Keep; focus moves to the answer and back): one domain's actions.
 */
function DomainActions(props: { testId: string; busy: Busy; canCheck: boolean; onCheck: () => void; removeLabel: string; removeConfirm: string; onRemove: () => void }) {
  const { t } = useTranslation('domains');
  const { testId, busy } = props;
  const confirm = useInlineConfirm();
  if (confirm.open) {
    return (
      <InlineConfirm
        className="domains-actions domains-confirm"
        question={props.removeConfirm}
        confirmLabel={props.removeLabel}
        cancelLabel={t('domains.keep')}
        busy={busy !== null}
        onConfirm={() => {
          confirm.close();
          props.onRemove();
        }}
        onCancel={confirm.close}
        testId={`${testId}-confirm`}
        confirmTestId={`${testId}-remove-confirm`}
        cancelTestId={`${testId}-remove-cancel`}
      />
    );
  }
  return (
    <div className="domains-actions">
      {props.canCheck && (
        <button type="button" className="btn btn-primary" disabled={busy !== null} onClick={props.onCheck} data-testid={`${testId}-check`}>
          {busy === 'check' ? t('domains.custom.checking') : t('domains.custom.checkNow')}
        </button>
      )}
      <button type="button" className="btn btn-ghost" ref={confirm.triggerRef} disabled={busy !== null} onClick={confirm.ask} data-testid={`${testId}-remove`}>
        {props.removeLabel}
      </button>
    </div>
  );
}

function AddForm({ label, button, busy, onAdd, testId }: { label: string; button: string; busy: boolean; onAdd: (domain: string) => void; testId: string }) {
  const id = useId();
  const [value, setValue] = useState('');
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (value.trim()) onAdd(value);
  };
  return (
    <form className="domains-add" onSubmit={submit}>
      <label htmlFor={id} className="dash-label">
        {label}
      </label>
      <div className="domains-add-row">
        <input
          id={id}
          className="dash-input"
          type="text"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="files.example.com"
          value={value}
          onChange={(e) => setValue(e.currentTarget.value)}
          data-testid={`${testId}-input`}
        />
        <button type="submit" className="btn btn-primary" disabled={busy || !value.trim()} data-testid={`${testId}-add`}>
          {button}
        </button>
      </div>
    </form>
  );
}

function CustomDomainCard({ settings, setSettings }: { settings: DomainSettings; setSettings: (s: DomainSettings) => void }) {
  const { t, i18n } = useTranslation('domains');
  const ids = useId();
  const { busy, error, run } = useAction(setSettings);
  const d = settings.customDomain;
  const when = (ms: number) => new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { dateStyle: 'medium', timeStyle: 'short' }).format(ms);
  return (
    <section className="card" aria-labelledby={`${ids}-custom`} data-testid="custom-domain-card">
      <h2 id={`${ids}-custom`}>{t('domains.custom.title')}</h2>
      <p className="muted">{t('domains.custom.lead')}</p>
      {!settings.plan.customDomain && !d ? (
        <UpgradeNote text={t('domains.custom.upgrade')} plan="pro" />
      ) : !d ? (
        <AddForm label={t('domains.custom.label')} button={t('domains.custom.add')} busy={busy !== null} onAdd={(v) => void run('add', () => addCustomDomain(v))} testId="custom-domain" />
      ) : (
        <>
          <p className="domains-head">
            <strong data-testid="custom-domain-name">{d.displayDomain}</strong>
            <span className={`domains-status domains-status-${d.domain_status}`} data-testid="custom-domain-status" data-status={d.domain_status}>
              <span className="sr-only">{t('domains.status.label')}: </span>
              {t(`domains.status.${d.domain_status}`)}
            </span>
          </p>
          {d.domain_status === 'verified' ? (
            <p data-testid="custom-domain-live">{t('domains.custom.live', { example: `${d.origin}/w/…` })}</p>
          ) : (
            <>
              <RecordsTable records={d.records} caption={t('domains.custom.recordsTitle')} testId="custom-domain-records" />
              {d.problems.length > 0 && (
                <ul className="domains-problems" data-testid="custom-domain-problems">
                  {d.problems.map((p) => (
                    <li key={`${p.record}-${p.state}`}>{problemText(t as never, p, d.records)}</li>
                  ))}
                </ul>
              )}
              <p className="dash-hint">{d.domain_status === 'failed' ? t('domains.custom.failedHint') : t('domains.custom.auto')}</p>
              {d.checkedAt !== null && <p className="dash-hint">{t('domains.custom.lastChecked', { time: when(d.checkedAt) })}</p>}
            </>
          )}
          <DomainActions
            testId="custom-domain"
            busy={busy}
            canCheck={d.domain_status !== 'verified'}
            onCheck={() => void run('check', checkCustomDomain)}
            removeLabel={t('domains.custom.remove')}
            removeConfirm={t('domains.custom.removeConfirm', { domain: d.displayDomain })}
            onRemove={() => void run('remove', removeCustomDomain)}
          />
        </>
      )}
      <p className="dash-error" role="alert" data-testid="custom-domain-error">
        {error ?? ''}
      </p>
    </section>
  );
}

function EmailDomainCard({ settings, setSettings }: { settings: DomainSettings; setSettings: (s: DomainSettings) => void }) {
  const { t } = useTranslation('domains');
  const ids = useId();
  const { busy, error, run } = useAction(setSettings);
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
        <AddForm label={t('domains.email.label')} button={t('domains.email.add')} busy={busy !== null} onAdd={(v) => void run('add', () => addEmailDomain(v))} testId="email-domain" />
      ) : (
        <>
          <p className="domains-head">
            <strong>{e.domain}</strong>
            <span className={`domains-status domains-status-${e.pmDomain.DKIMUpdateStatus === 'SUCCESS' ? 'verified' : pending ? 'pending' : 'failed'}`} data-testid="email-domain-status" data-status={e.pmDomain.DKIMUpdateStatus}>
              <span className="sr-only">{t('domains.status.label')}: </span>
              {t(`domains.email.status.${e.pmDomain.DKIMUpdateStatus}`)}
            </span>
          </p>
          {e.pmDomain.DKIMUpdateStatus === 'SUCCESS' ? (
            <p>{t('domains.email.from', { address: e.fromAddress })}</p>
          ) : (
            <>
              <RecordsTable records={e.records} caption={t('domains.email.recordsTitle')} testId="email-domain-records" />
              <p className="dash-hint">{t('domains.email.until')}</p>
            </>
          )}
          <DomainActions
            testId="email-domain"
            busy={busy}
            canCheck={pending}
            onCheck={() => void run('check', checkEmailDomain)}
            removeLabel={t('domains.email.remove')}
            removeConfirm={t('domains.email.removeConfirm', { domain: e.domain })}
            onRemove={() => void run('remove', removeEmailDomain)}
          />
        </>
      )}
      <p className="dash-error" role="alert" data-testid="email-domain-error">
        {error ?? ''}
      </p>
    </section>
  );
}

/**
 * /dash/account/domain (spec §2 domainSettings): the custom link domain (typedDomain,
 * the DNS records to create, domain_status, Check now) and, in a section of its own, the sender
 * email domain (pmDomain and its DKIM records). Team members see that their admin manages it.
 */
export function DomainSettingsPage() {
  const { t } = useTranslation('domains');
  const { user } = useSession();
  usePageTitle(t('domains.title'));
  const member = user?.isTeamMember === true;
  const load = useLoad(fetchDomainSettings, [user], { enabled: user !== null && !member });
  const setSettings = load.setData;

  if (!user) return <PageLoading />;
  return (
    <div className="container dash-page domains-page">
      <h1>{t('domains.title')}</h1>
      <p className="lead muted">{t('domains.lead')}</p>
      {member ? (
        <p className="card" data-testid="domains-member">
          {t('domains.member')}
        </p>
      ) : load.state === 'loading' ? (
        <PageLoading />
      ) : load.state === 'failed' ? (
        <LoadFailed text={t('domains.loadFailed')} retryLabel={t('domains.retry')} onRetry={load.reload} />
      ) : (
        <>
          <CustomDomainCard settings={load.data} setSettings={setSettings} />
          <EmailDomainCard settings={load.data} setSettings={setSettings} />
        </>
      )}
    </div>
  );
}
