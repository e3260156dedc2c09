import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EXPIRY_PRESETS, isExpiryAllowed } from '@domain/expiry';
import { MESSAGE_MAX_LENGTH } from '@domain/validation';
import { paths } from '@/app/paths';
import type { SettingsFormState } from '../use-settings-form';
import { SettingsCheck, SettingsField, SettingsTextArea } from './settings-fields';

/** send.expiry.<key> of EXPIRY_PRESETS, in their order (the send form's labels; not imported from it, so this screen shares no chunk with the home page's form). */
const PRESET_KEYS = ['week', 'month', 'months3', 'year'] as const;

/** The defaults of new transfers (they prefill the dashboard's quick send). */
export function TransferDefaults({ state, role }: { state: SettingsFormState; role: string }) {
  const { t } = useTranslation('settings');
  const { t: tApp } = useTranslation();
  const { ids, form, set } = state;
  const anyLongerExpiry = EXPIRY_PRESETS.some((p) => !isExpiryAllowed(role, p.seconds));
  return (
    <section className="card" aria-labelledby={`${ids}-transfers`} data-testid="settings-transfers">
      <h2 id={`${ids}-transfers`}>{t('settings.transfersTitle')}</h2>
      <SettingsField
        state={state}
        name="expirySeconds"
        label={t('settings.expiry')}
        hint={anyLongerExpiry ? t('settings.expiryPlanHint') : undefined}
      >
        {({ id, describedBy, invalid }) => (
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
              <option key={p.seconds} value={p.seconds} disabled={!isExpiryAllowed(role, p.seconds)}>
                {tApp(`send.expiry.${PRESET_KEYS[i] ?? 'week'}`)}
              </option>
            ))}
          </select>
        )}
      </SettingsField>
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
      <SettingsTextArea
        state={state}
        name="message"
        label={t('settings.message')}
        hint={t('settings.messageCount', { count: form.message.length, max: MESSAGE_MAX_LENGTH })}
        maxLength={MESSAGE_MAX_LENGTH}
      />
      <SettingsCheck
        state={state}
        name="downloadEmails"
        label={t('settings.downloadEmails')}
        hint={t('settings.downloadEmailsHint')}
      />
      <SettingsCheck state={state} name="expiryReminders" label={t('settings.reminders')} />
    </section>
  );
}
