import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { limitsFor } from '@domain/plans';

/** A role's plan name in the reader's language; roles without a translation (premium) use the plan table's name. */
export function usePlanName(): (role: string) => string {
  const { t, i18n } = useTranslation();
  return useCallback(
    (role: string) => {
      const key = `plans.${role}`;
      return i18n.exists(key) ? (t as (k: string) => string)(key) : limitsFor(role).displayName;
    },
    [t, i18n],
  );
}
