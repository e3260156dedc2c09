import { useTranslation } from 'react-i18next';
import type { ReviewProblem } from '@/features/downloads/review/review-logic';

/** A refused call's sentence in the reviewer's language (the API's English message is for logs). */
export function useProblemText(): (problem: ReviewProblem) => string {
  const { t } = useTranslation('reviewer');
  return (problem) => {
    switch (problem.kind) {
      case 'rateLimited':
        return t('errorRateLimited', { count: problem.minutes });
      case 'closed':
        return t('errorClosed');
      case 'full':
        return t('errorFull');
      case 'off':
        return t('errorOff');
      case 'identity':
        return t('identityTitle');
      case 'invalid':
        return t('errorInvalid');
      case 'notFound':
        return t('errorNotFound');
      case 'network':
        return t('errorNetwork');
      case 'other':
        return t('errorOther');
      case 'cancelled':
        return '';
    }
  };
}
