import { useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EXPIRY_PRESETS, isExpiryAllowed } from '@domain/expiry';
import { limitsFor } from '@domain/plans';
import { REQUEST_MESSAGE_MAX } from '@domain/requests-api';
import { MESSAGE_MAX_LENGTH } from '@domain/validation';
import { paths } from '@/app/paths';
import { PageLoading } from '@/components/page-loading';
import { errorTextOf } from '@/i18n/error-keys';
import { formatBytes, formatCount } from '@/lib/format';
import { useSession } from '@/lib/session/session-provider';
import { usePageTitle } from '@/lib/use-page-title';
import { updateProfile } from '@/shared/account/account-api';
import {
  settingsBody,
  settingsFormOf,
  type SettingsField,
  type SettingsForm,
  type SettingsProblem,
} from '../settings-form';
import '../settings.css';

/** send.expiry.<key> of EXPIRY_PRESETS, in their order (the send form's labels; not imported from it, so this screen shares no chunk with the home page's form). */
const PRESET_KEYS = ['week', 'month', 'months3', 'year'] as const;

type Save = { kind: 'idle' | 'saving' | 'saved' | 'invalid' } | { kind: 'failed'; message: string };

/**
 * /dash/settings (spec §3 transferSettings, requestSettings): the defaults of new
 * transfers (they prefill the dashboard's quick send) and of new file requests, saved together
 * through POST /v1/updateProfile, which applies the same plan rules.
 */
export function SettingsPage() {
  const { t } = useTranslation('settings');
  const { t: tApp, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const { user, setUser } = useSession();
  const ids = useId();
  usePageTitle(t('settings.title'));
  const [edited, setEdited] = useState<SettingsForm | null>(null);
  const [problems, setProblems] = useState<Partial<Record<SettingsField, SettingsProblem>>>({});
  const [save, setSave] = useState<Save>({ kind: 'idle' });

  if (!user) return <PageLoading />;
  const form = edited ?? settingsFormOf(user);
  const limits = limitsFor(user.role);
  const set = <K extends keyof SettingsForm>(field: K, value: SettingsForm[K]) => {
    setEdited({ ...form, [field]: value });
    if (save.kind !== 'saving') setSave({ kind: 'idle' });
  };

  const submit = async () => {
    const checked = settingsBody(form, user.role);
    if (!checked.ok) {
      setProblems(checked.problems);
      setSave({ kind: 'invalid' });
      const first = Object.keys(checked.problems)[0];
      if (first) document.getElementById(`${ids}-${first}`)?.focus();
      return;
    }
    setProblems({});
    setSave({ kind: 'saving' });
    try {
      const saved = await updateProfile(checked.body);
      setUser(saved);
      setEdited(null);
      setSave({ kind: 'saved' });
    } catch (err) {
      const text = errorTextOf(err);
      setSave({ kind: 'failed', message: tApp(text.key, text.params) });
    }
  };

  const problemText = (field: SettingsField): string | null => {
    const p = problems[field];
    if (!p) return null;
    if (p === 'expiry') return tApp('send.errors.expiryNotAllowed');
    if (p === 'maxMb') return t('settings.errors.maxMb', { limit: formatBytes(limits.uploadLimit, lng) });
    if (p === 'maxFiles') return t('settings.errors.maxFiles', { limit: formatCount(limits.files, lng) });
    return t(`settings.errors.${p}`);
  };

  /** A labelled control with its hint and problem, both tied to it by aria-describedby. */
  const field = (
    name: SettingsField,
    label: string,
    control: (p: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode,
    hint?: string,
  ) => {
    const id = `${ids}-${name}`;
    const problem = problemText(name);
    const describedBy =
      [hint ? `${id}-hint` : '', problem ? `${id}-problem` : ''].filter(Boolean).join(' ') || undefined;
    return (
      <div className="dash-field">
        <label htmlFor={id} className="dash-label">
          {label}
        </label>
        {control({ id, describedBy, invalid: problem !== null })}
        {hint && (
          <p id={`${id}-hint`} className="dash-hint">
            {hint}
          </p>
        )}
        {problem && (
          <p id={`${id}-problem`} className="dash-error">
            {problem}
          </p>
        )}
      </div>
    );
  };

  const check = (name: 'downloadEmails' | 'expiryReminders' | 'uploadEmails', label: string, hint?: string) => (
    <div className="dash-field">
      <div className="settings-check">
        <input
          id={`${ids}-${name}`}
          type="checkbox"
          checked={form[name]}
          aria-describedby={hint ? `${ids}-${name}-hint` : undefined}
          onChange={(e) => set(name, e.currentTarget.checked)}
          data-testid={`setting-${name}`}
        />
        <label htmlFor={`${ids}-${name}`}>{label}</label>
      </div>
      {hint && (
        <p id={`${ids}-${name}-hint`} className="dash-hint">
          {hint}
        </p>
      )}
    </div>
  );

  const number = (name: 'dueDays' | 'maxMb' | 'maxFiles', label: string, hint: string, step: string) =>
    field(
      name,
      label,
      ({ id, describedBy, invalid }) => (
        <input
          id={id}
          className="dash-input"
          type="number"
          inputMode={step === 'any' ? 'decimal' : 'numeric'}
          min={1}
          step={step}
          value={form[name]}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          onChange={(e) => set(name, e.currentTarget.value)}
          data-testid={`setting-${name}`}
        />
      ),
      hint,
    );

  const anyLongerExpiry = EXPIRY_PRESETS.some((p) => !isExpiryAllowed(user.role, p.seconds));

  return (
    <div className="container dash-page settings-page">
      <h1>{t('settings.title')}</h1>
      <p className="lead muted">{t('settings.lead')}</p>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="settings-grid">
          <section className="card" aria-labelledby={`${ids}-transfers`} data-testid="settings-transfers">
            <h2 id={`${ids}-transfers`}>{t('settings.transfersTitle')}</h2>
            {field(
              'expirySeconds',
              t('settings.expiry'),
              ({ id, describedBy, invalid }) => (
                <select
                  id={id}
                  className="dash-input"
                  value={form.expirySeconds}
                  aria-invalid={invalid || undefined}
                  aria-describedby={describedBy}
                  onChange={(e) => set('expirySeconds', Number(e.currentTarget.value))}
                  data-testid="setting-expiry"
                >
                  {EXPIRY_PRESETS.map((p, i) => (
                    <option key={p.seconds} value={p.seconds} disabled={!isExpiryAllowed(user.role, p.seconds)}>
                      {tApp(`send.expiry.${PRESET_KEYS[i] ?? 'week'}`)}
                    </option>
                  ))}
                </select>
              ),
              anyLongerExpiry ? t('settings.expiryPlanHint') : undefined,
            )}
            {anyLongerExpiry && (
              <p className="dash-hint">
                <Link to={paths.pricing()} className="text-link">
                  {tApp('dashboard.limit.upgrade')}
                </Link>
              </p>
            )}
            <fieldset className="settings-radios">
              <legend className="dash-label">{t('settings.sendAs')}</legend>
              {(['email', 'link'] as const).map((mode) => (
                <label key={mode}>
                  <input
                    type="radio"
                    name={`${ids}-sendAs`}
                    value={mode}
                    checked={form.sendAs === mode}
                    onChange={() => set('sendAs', mode)}
                    data-testid={`setting-sendAs-${mode}`}
                  />
                  {mode === 'email' ? t('settings.sendAsEmail') : t('settings.sendAsLink')}
                </label>
              ))}
            </fieldset>
            {field(
              'message',
              t('settings.message'),
              ({ id, describedBy, invalid }) => (
                <textarea
                  id={id}
                  className="dash-input dash-textarea"
                  value={form.message}
                  maxLength={MESSAGE_MAX_LENGTH}
                  aria-invalid={invalid || undefined}
                  aria-describedby={describedBy}
                  onChange={(e) => set('message', e.currentTarget.value)}
                  data-testid="setting-message"
                />
              ),
              t('settings.messageCount', { count: form.message.length, max: MESSAGE_MAX_LENGTH }),
            )}
            {check('downloadEmails', t('settings.downloadEmails'), t('settings.downloadEmailsHint'))}
            {check('expiryReminders', t('settings.reminders'))}
          </section>

          <section className="card" aria-labelledby={`${ids}-requests`} data-testid="settings-requests">
            <h2 id={`${ids}-requests`}>{t('settings.requestsTitle')}</h2>
            {field('requestMessage', t('settings.requestMessage'), ({ id, describedBy, invalid }) => (
              <textarea
                id={id}
                className="dash-input dash-textarea"
                value={form.requestMessage}
                maxLength={REQUEST_MESSAGE_MAX}
                aria-invalid={invalid || undefined}
                aria-describedby={describedBy}
                onChange={(e) => set('requestMessage', e.currentTarget.value)}
                data-testid="setting-requestMessage"
              />
            ))}
            {number('dueDays', t('settings.dueDays'), t('settings.dueDaysHint'), '1')}
            {number(
              'maxMb',
              t('settings.maxMb'),
              t('settings.maxMbHint', { limit: formatBytes(limits.uploadLimit, lng) }),
              'any',
            )}
            {field(
              'allowedTypes',
              t('settings.allowedTypes'),
              ({ id, describedBy, invalid }) => (
                <input
                  id={id}
                  className="dash-input"
                  type="text"
                  value={form.allowedTypes}
                  autoComplete="off"
                  spellCheck={false}
                  aria-invalid={invalid || undefined}
                  aria-describedby={describedBy}
                  onChange={(e) => set('allowedTypes', e.currentTarget.value)}
                  data-testid="setting-allowedTypes"
                />
              ),
              t('settings.allowedTypesHint'),
            )}
            {number(
              'maxFiles',
              t('settings.maxFiles'),
              t('settings.maxFilesHint', { limit: formatCount(limits.files, lng) }),
              '1',
            )}
            {check('uploadEmails', t('settings.uploadEmails'))}
          </section>
        </div>
        <div className="dash-form-actions">
          <button
            type="submit"
            className="btn btn-primary"
            disabled={save.kind === 'saving'}
            data-testid="settings-save"
          >
            {save.kind === 'saving' ? t('settings.saving') : t('settings.save')}
          </button>
          <p
            className={`dash-save-status${save.kind === 'failed' || save.kind === 'invalid' ? ' dash-error' : ''}`}
            role="status"
            data-testid="settings-status"
          >
            {save.kind === 'saved'
              ? t('settings.saved')
              : save.kind === 'invalid'
                ? t('settings.invalid')
                : save.kind === 'failed'
                  ? save.message
                  : ''}
          </p>
        </div>
      </form>
    </div>
  );
}
