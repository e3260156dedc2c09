import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SessionUser } from '@domain/auth-api';
import { limitsFor } from '@domain/plans';
import { formatBytes, formatCount } from '@/lib/format';
import { useSession } from '@/lib/session/session-provider';
import { useAction } from '@/lib/use-action';
import { updateProfile } from '@/shared/account/account-api';
import {
  settingsBody,
  settingsFormOf,
  type SettingsField,
  type SettingsForm,
  type SettingsProblem,
} from './settings-form';

/**
 * The settings form: the edits over the saved settings, the fields' problems (the first one
 * takes focus), and the save through POST /v1/updateProfile.
 */
export function useSettingsForm(user: SessionUser) {
  const { t } = useTranslation('settings');
  const { t: tApp, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? 'en';
  const { setUser } = useSession();
  const ids = useId();
  const action = useAction();
  const [edited, setEdited] = useState<SettingsForm | null>(null);
  const [problems, setProblems] = useState<Partial<Record<SettingsField, SettingsProblem>>>({});
  const [saved, setSaved] = useState(false);

  const form = edited ?? settingsFormOf(user);
  const limits = limitsFor(user.role);
  const set = <K extends keyof SettingsForm>(field: K, value: SettingsForm[K]) => {
    setEdited({ ...form, [field]: value });
    if (!action.busy) {
      setSaved(false);
      action.setError(null);
    }
  };

  const submit = async () => {
    setSaved(false);
    const checked = settingsBody(form, user.role);
    if (!checked.ok) {
      setProblems(checked.problems);
      action.setError(t('settings.invalid'));
      const first = Object.keys(checked.problems)[0];
      if (first) document.getElementById(`${ids}-${first}`)?.focus();
      return;
    }
    setProblems({});
    await action.run(async () => {
      setUser(await updateProfile(checked.body));
      setEdited(null);
      setSaved(true);
    });
  };

  const problemText = (field: SettingsField): string | null => {
    const p = problems[field];
    if (!p) return null;
    if (p === 'expiry') return tApp('send.errors.expiryNotAllowed');
    if (p === 'maxMb') return t('settings.errors.maxMb', { limit: formatBytes(limits.uploadLimit, lng) });
    if (p === 'maxFiles') return t('settings.errors.maxFiles', { limit: formatCount(limits.files, lng) });
    return t(`settings.errors.${p}`);
  };

  return { ids, lng, limits, form, set, submit, problemText, saved, action };
}

export type SettingsFormState = ReturnType<typeof useSettingsForm>;
