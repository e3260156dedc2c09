import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { JSONWebKeySet } from 'jose';
import { parseKeySet, verifyReceiptText, type ReceiptCheck } from '@domain/receipt';
import { RECEIPT_CHECK_PATH, RECEIPT_KEYS_PATH } from '@domain/receipt-format';
import type { ReceiptCheckResponse } from '@domain/receipts-api';
import { PageHeader } from '@/components/page-header';
import { usePageTitle } from '@/lib/use-page-title';
import './verify-page.css';

type Outcome =
  | {
      readonly kind: 'checked';
      readonly check: ReceiptCheck;
      readonly offline: boolean;
      /** online: whether this site still holds the delivery as signed (undefined: not asked, or no answer) */
      readonly recorded?: boolean;
    }
  /** the published keys could not be fetched (offline, or the server did not answer) */
  | { readonly kind: 'keysUnavailable' }
  /** the key set file given is not a JWKS */
  | { readonly kind: 'keysInvalid' };

async function publishedKeys(): Promise<JSONWebKeySet | null> {
  try {
    const res = await fetch(RECEIPT_KEYS_PATH, { headers: { accept: 'application/json' } });
    return res.ok ? parseKeySet(await res.text()) : null;
  } catch {
    return null;
  }
}

/** Asks this site whether it still holds the receipt's delivery as signed; undefined without an answer. */
async function recordedOnline(text: string): Promise<boolean | undefined> {
  try {
    const { jws } = JSON.parse(text) as { jws: string };
    const res = await fetch(RECEIPT_CHECK_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ jws }),
    });
    if (!res.ok) return undefined;
    const answer = (await res.json()) as ReceiptCheckResponse;
    return answer.valid && answer.recorded;
  } catch {
    return undefined;
  }
}

/**
 * /verify: checks a signed delivery receipt in the browser. The receipt (and, to check without
 * asking this site, a saved copy of its published keys) never leaves the page; only the public
 * keys are fetched when no key file is given. Says what a valid receipt proves and what not.
 */
export function VerifyPage() {
  const { t, i18n } = useTranslation();
  usePageTitle(t('verify.title'));
  const ids = useId();
  const [receipt, setReceipt] = useState<File | null>(null);
  const [keysFile, setKeysFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);

  const check = async (event: FormEvent) => {
    event.preventDefault();
    if (!receipt) return;
    setBusy(true);
    setOutcome(null);
    try {
      const keys = keysFile ? parseKeySet(await keysFile.text()) : await publishedKeys();
      if (!keys) {
        setOutcome({ kind: keysFile ? 'keysInvalid' : 'keysUnavailable' });
        return;
      }
      const text = await receipt.text();
      const check = await verifyReceiptText(text, keys);
      const recorded = check.ok && !keysFile ? await recordedOnline(text) : undefined;
      setOutcome({ kind: 'checked', check, offline: !!keysFile, ...(recorded === undefined ? {} : { recorded }) });
    } finally {
      setBusy(false);
    }
  };

  const dateTime = (iso: string) =>
    new Intl.DateTimeFormat(i18n.resolvedLanguage ?? 'en', { dateStyle: 'long', timeStyle: 'long' }).format(
      new Date(iso),
    );

  return (
    <div className="container">
      <PageHeader title={t('verify.heading')} lead={t('verify.lead')} />
      <form className="card verify-form" onSubmit={(e) => void check(e)} data-testid="verify-form">
        <p>
          <label htmlFor={`${ids}-receipt`}>{t('verify.receiptLabel')}</label>
          <br />
          <input
            id={`${ids}-receipt`}
            type="file"
            accept="application/json,.json"
            required
            onChange={(e) => {
              setReceipt(e.currentTarget.files?.[0] ?? null);
              setOutcome(null);
            }}
            data-testid="verify-receipt-file"
          />
        </p>
        <p>
          <label htmlFor={`${ids}-keys`}>{t('verify.keysLabel')}</label>
          <br />
          <input
            id={`${ids}-keys`}
            type="file"
            accept="application/json,.json"
            aria-describedby={`${ids}-keys-hint`}
            onChange={(e) => {
              setKeysFile(e.currentTarget.files?.[0] ?? null);
              setOutcome(null);
            }}
            data-testid="verify-keys-file"
          />
          <br />
          <span id={`${ids}-keys-hint`} className="muted">
            {t('verify.keysHint')} <a href={RECEIPT_KEYS_PATH}>{RECEIPT_KEYS_PATH}</a>
          </span>
        </p>
        <button type="submit" className="btn btn-primary" disabled={!receipt || busy} data-testid="verify-submit">
          {busy ? t('verify.checking') : t('verify.check')}
        </button>
      </form>

      <div role="status" aria-live="polite" className="section-tight" data-testid="verify-result">
        {outcome?.kind === 'keysUnavailable' && <p className="notice notice-error">{t('verify.keysUnavailable')}</p>}
        {outcome?.kind === 'keysInvalid' && <p className="notice notice-error">{t('verify.keysInvalid')}</p>}
        {outcome?.kind === 'checked' && !outcome.check.ok && (
          <div className="card" data-testid="verify-invalid">
            <h2>{t('verify.invalidTitle')}</h2>
            <p>{t(`verify.problems.${outcome.check.problem}`)}</p>
          </div>
        )}
        {outcome?.kind === 'checked' && outcome.check.ok && (
          <div className="card" data-testid="verify-valid">
            <h2>{t('verify.validTitle')}</h2>
            <p className="muted">
              {t(outcome.offline ? 'verify.checkedOffline' : 'verify.checkedOnline', { kid: outcome.check.kid })}
            </p>
            {outcome.recorded !== undefined && (
              <p data-testid="verify-recorded">{t(outcome.recorded ? 'verify.recorded' : 'verify.notRecorded')}</p>
            )}
            <ValidReceipt check={outcome.check} dateTime={dateTime} />
          </div>
        )}
      </div>
    </div>
  );
}

function ValidReceipt({
  check,
  dateTime,
}: {
  check: Extract<ReceiptCheck, { ok: true }>;
  dateTime(iso: string): string;
}) {
  const { t } = useTranslation();
  const r = check.receipt;
  const recipient =
    r.recipient.kind === 'link'
      ? t('verify.recipient.link')
      : t(`verify.recipient.${r.recipient.kind}`, { email: r.recipient.email });
  return (
    <>
      <dl className="verify-facts">
        <dt>{t('verify.facts.transfer')}</dt>
        <dd>{r.transfer}</dd>
        <dt>{t('verify.facts.delivered')}</dt>
        <dd>{dateTime(r.deliveredAt)}</dd>
        <dt>{t('verify.facts.recipient')}</dt>
        <dd data-testid="verify-recipient">{recipient}</dd>
        <dt>{t('verify.facts.country')}</dt>
        <dd>{r.country === 'XX' ? t('verify.unknownCountry') : r.country}</dd>
        <dt>{t('verify.facts.what')}</dt>
        <dd>
          {t(r.what === 'zip' ? 'verify.zip' : 'verify.file')} · {t('verify.bytes', { count: r.bytes })} ·{' '}
          {t(r.servedWhole ? 'verify.whole' : 'verify.notWhole')}
        </dd>
      </dl>
      <h3>{t('verify.facts.files')}</h3>
      <ul className="verify-files">
        {r.files.map((f) => (
          <li key={f.path}>
            {f.path} · {t('verify.bytes', { count: f.size })}
            <br />
            <code className="verify-digest">{f.sha256 ?? t('verify.noDigest')}</code>
          </li>
        ))}
      </ul>
      <h3>{t('verify.provesTitle')}</h3>
      <ul data-testid="verify-proves">
        <li>{t('verify.proves.signed', { issuer: r.issuer })}</li>
        <li>{t('verify.proves.served', { recipient, when: dateTime(r.deliveredAt) })}</li>
        <li>{t('verify.proves.digests')}</li>
      </ul>
      <h3>{t('verify.notProvesTitle')}</h3>
      <ul data-testid="verify-not-proves">
        <li>{t(`verify.notProves.${r.recipient.kind}`)}</li>
        <li>{t('verify.notProves.content')}</li>
        <li>{t('verify.notProves.country')}</li>
      </ul>
    </>
  );
}
