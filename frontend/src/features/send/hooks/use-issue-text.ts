import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { issueText } from '@/shared/send-form/labels';
import type { FieldIssue } from '@/shared/send-form/send-state';

/** Translates a form issue for the sender's role. */
export function useIssueText(role: string): (issue: Pick<FieldIssue, 'code'>) => string {
  const { t } = useTranslation();
  return useCallback(
    (issue) => {
      const { key, params } = issueText(issue, role);
      return params ? t(key, params) : t(key);
    },
    [t, role],
  );
}
