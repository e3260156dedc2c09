import { useTranslation } from 'react-i18next';
import { REQUEST_MESSAGE_MAX } from '@domain/requests-api';
import { formatBytes, formatCount } from '@/lib/format';
import type { SettingsFormState } from '../use-settings-form';
import { SettingsCheck, SettingsField, SettingsNumber, SettingsTextArea } from './settings-fields';

/** The defaults of new file requests. */
export function RequestDefaults({ state }: { state: SettingsFormState }) {
  const { t } = useTranslation('settings');
  const { ids, form, set, limits, lng } = state;
  return (
    <section className="card" aria-labelledby={`${ids}-requests`} data-testid="settings-requests">
      <h2 id={`${ids}-requests`}>{t('settings.requestsTitle')}</h2>
      <SettingsTextArea
        state={state}
        name="requestMessage"
        label={t('settings.requestMessage')}
        maxLength={REQUEST_MESSAGE_MAX}
      />
      <SettingsNumber
        state={state}
        name="dueDays"
        label={t('settings.dueDays')}
        hint={t('settings.dueDaysHint')}
        step="1"
      />
      <SettingsNumber
        state={state}
        name="maxMb"
        label={t('settings.maxMb')}
        hint={t('settings.maxMbHint', { limit: formatBytes(limits.uploadLimit, lng) })}
        step="any"
      />
      <SettingsField
        state={state}
        name="allowedTypes"
        label={t('settings.allowedTypes')}
        hint={t('settings.allowedTypesHint')}
      >
        {({ id, describedBy, invalid }) => (
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
        )}
      </SettingsField>
      <SettingsNumber
        state={state}
        name="maxFiles"
        label={t('settings.maxFiles')}
        hint={t('settings.maxFilesHint', { limit: formatCount(limits.files, lng) })}
        step="1"
      />
      <SettingsCheck state={state} name="uploadEmails" label={t('settings.uploadEmails')} />
    </section>
  );
}
