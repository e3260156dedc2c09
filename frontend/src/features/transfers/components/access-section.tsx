import { useEffect, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TransferDetail } from '@domain/dashboard-api';
import type { AccessListResponse, AccessRow } from '@domain/recipient-access';
import { normaliseEmail } from '@domain/input-rules';
import { DataTable } from '@/components/table-head';
import { errorTextOf } from '@/i18n/error-keys';
import {
  addAccessRecipients,
  changeAccessRecipient,
  changeAccessSettings,
  fetchAccessList,
} from '../api/transfer-modal-api';
import { formatDateTime } from '../transfer-format';

const DAY = 86_400_000;

/** The yyyy-mm-dd of a date input, as the end of that day in the reader's time zone. */
function endOfDay(value: string): number | undefined {
  const [y, m, d] = value.split('-').map(Number);
  if (!y || !m || !d) return undefined;
  return new Date(y, m - 1, d, 23, 59, 59).getTime();
}

function dateValue(at: number | undefined): string {
  if (at === undefined) return '';
  const d = new Date(at);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * Verified recipients (docs/decisions/0076) in the TransferModal: turn it on or off (with a
 * domain), each address's state, its own expiry, revoke or restore, remove; add addresses (they
 * get the mail). Every change answers the list, which replaces the one shown.
 */
export function AccessSection({ detail }: { detail: TransferDetail }) {
  const { t, i18n } = useTranslation('transfers');
  const { t: tApp } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const headingId = useId();
  const addId = useId();
  const domainId = useId();
  const [list, setList] = useState<AccessListResponse | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [address, setAddress] = useState('');
  const [domain, setDomain] = useState('');

  useEffect(() => {
    const controller = new AbortController();
    fetchAccessList(detail.slug, controller.signal).then(
      (l) => {
        setList(l);
        setDomain(l.domain ?? '');
      },
      (err: unknown) => {
        if (!controller.signal.aborted) setError(tApp(errorTextOf(err).key, errorTextOf(err).params));
      },
    );
    return () => controller.abort();
  }, [detail.slug]);

  async function run(action: () => Promise<AccessListResponse>, done?: (l: AccessListResponse) => string | null) {
    setBusy(true);
    setError(null);
    setNotice(null);
    try {
      const next = await action();
      setList(next);
      setNotice(done?.(next) ?? null);
    } catch (err) {
      const text = errorTextOf(err);
      setError(tApp(text.key, text.params));
    } finally {
      setBusy(false);
    }
  }

  function add(event: FormEvent) {
    event.preventDefault();
    const email = normaliseEmail(address);
    if (!email) {
      setError(t('access.invalidEmail'));
      return;
    }
    void run(
      () => addAccessRecipients({ slug: detail.slug, emails: [email] }),
      () => {
        setAddress('');
        return t('access.added', { email });
      },
    );
  }

  const stateText = (r: AccessRow) =>
    r.state === 'downloaded'
      ? t('access.state.downloaded', { count: r.downloads })
      : t(`access.state.${r.state}` as const);

  const change = (r: AccessRow, action: 'remove' | 'revoke' | 'restore') =>
    run(() => changeAccessRecipient({ slug: detail.slug, email: r.email, action }));

  return (
    <section className="tr-section" aria-labelledby={headingId} data-testid="transfer-access">
      <h3 id={headingId}>{t('access.title')}</h3>
      {list === null ? (
        error ? (
          <p className="tr-field-error" role="alert">
            {error}
          </p>
        ) : (
          <p className="muted" role="status">
            {t('modal.loading')}
          </p>
        )
      ) : (
        <>
          <label className="tr-access-toggle">
            <input
              type="checkbox"
              checked={list.enabled}
              disabled={busy}
              onChange={(event) =>
                void run(() =>
                  changeAccessSettings({
                    slug: detail.slug,
                    enabled: event.target.checked,
                    ...(domain.trim() ? { domain: domain.trim() } : {}),
                  }),
                )
              }
              data-testid="access-enabled"
            />{' '}
            {t('access.enabled')}
          </label>
          <p className="muted tr-hint">{t('access.lead')}</p>
          {list.enabled && (
            <>
              <form
                className="tr-field"
                onSubmit={(event) => {
                  event.preventDefault();
                  void run(() =>
                    changeAccessSettings({ slug: detail.slug, enabled: true, domain: domain.trim() || null }),
                  );
                }}
              >
                <label className="tr-label" htmlFor={domainId}>
                  {t('access.domainLabel')}
                </label>
                <div className="tr-copy-row">
                  <input
                    id={domainId}
                    className="field-input"
                    value={domain}
                    placeholder="example.com"
                    onChange={(event) => setDomain(event.target.value)}
                    data-testid="access-domain"
                  />
                  <button type="submit" className="btn btn-ghost btn-sm" disabled={busy}>
                    {t('access.saveDomain')}
                  </button>
                </div>
              </form>
              {list.recipients.length === 0 ? (
                <p className="muted">{t('access.empty')}</p>
              ) : (
                <DataTable
                  wrapClassName="tr-table-wrap"
                  className="tr-table tr-table-compact"
                  testId="access-table"
                  columns={[
                    t('access.columns.recipient'),
                    t('access.columns.state'),
                    t('access.columns.until'),
                    t('access.columns.actions'),
                  ]}
                >
                  {list.recipients.map((r) => (
                    <tr key={r.email} data-testid="access-row" data-email={r.email}>
                      <th scope="row" className="tr-break">
                        {r.email}
                      </th>
                      <td data-testid="access-state">{stateText(r)}</td>
                      <td>
                        <input
                          type="date"
                          className="field-input tr-access-date"
                          aria-label={t('access.untilLabel', { email: r.email })}
                          value={dateValue(r.expiresAt)}
                          min={dateValue(Date.now() + DAY)}
                          disabled={busy}
                          onChange={(event) => {
                            const at = endOfDay(event.target.value);
                            void run(() =>
                              changeAccessRecipient({
                                slug: detail.slug,
                                email: r.email,
                                action: 'expiry',
                                expiresAt: at ?? null,
                              }),
                            );
                          }}
                        />
                        {r.expiresAt !== undefined && (
                          <span className="muted tr-hint"> {formatDateTime(r.expiresAt, lng)}</span>
                        )}
                      </td>
                      <td className="tr-access-actions">
                        <button
                          type="button"
                          className="btn btn-ghost btn-sm"
                          disabled={busy}
                          aria-label={t(r.state === 'revoked' ? 'access.restoreFor' : 'access.revokeFor', {
                            email: r.email,
                          })}
                          onClick={() => void change(r, r.state === 'revoked' ? 'restore' : 'revoke')}
                          data-testid="access-revoke"
                        >
                          {t(r.state === 'revoked' ? 'access.restore' : 'access.revoke')}
                        </button>
                        <button
                          type="button"
                          className="btn btn-ghost btn-sm tr-danger"
                          disabled={busy}
                          aria-label={t('access.removeFor', { email: r.email })}
                          onClick={() => void change(r, 'remove')}
                          data-testid="access-remove"
                        >
                          {t('access.remove')}
                        </button>
                      </td>
                    </tr>
                  ))}
                </DataTable>
              )}
              <form className="tr-field" onSubmit={add} noValidate>
                <label className="tr-label" htmlFor={addId}>
                  {t('access.addLabel')}
                </label>
                <div className="tr-copy-row">
                  <input
                    id={addId}
                    className="field-input"
                    type="email"
                    inputMode="email"
                    autoComplete="off"
                    value={address}
                    onChange={(event) => setAddress(event.target.value)}
                    data-testid="access-add-input"
                  />
                  <button type="submit" className="btn btn-primary btn-sm" disabled={busy} data-testid="access-add">
                    {t('access.add')}
                  </button>
                </div>
              </form>
            </>
          )}
          {error && (
            <p className="tr-field-error" role="alert" data-testid="access-error">
              {error}
            </p>
          )}
          {notice && (
            <p className="muted" role="status" data-testid="access-notice">
              {notice}
            </p>
          )}
        </>
      )}
    </section>
  );
}
