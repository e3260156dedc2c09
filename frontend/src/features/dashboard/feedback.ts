/** The feedback widget's rules (spec §2, §5, §9): when it opens by itself and when it may send. */
import { feedbackRequestSchema } from '@domain/auth-api';
import { shouldPromptFeedback } from '@domain/ui-timings';
import { FEEDBACK_RATINGS } from '@domain/validation';

export type FeedbackRating = (typeof FEEDBACK_RATINGS)[number];
export { FEEDBACK_RATINGS };

/** Per user, so a shared browser prompts each account at its own login counts. */
export function feedbackStorageKey(userId: string): string {
  return `sb_feedback_prompted:${userId}`;
}

/** Login counts at which the prompt was already shown; anything unreadable counts as none. */
export function parseShownCounts(raw: string | null): number[] {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.filter((n): n is number => Number.isInteger(n)) : [];
  } catch {
    return [];
  }
}

/** Opens by itself at login counts 3, 18 and 35, once per count. */
export function feedbackPromptDue(loginCount: number, shown: readonly number[]): boolean {
  return shouldPromptFeedback(loginCount) && !shown.includes(loginCount);
}

export function withShownCount(shown: readonly number[], loginCount: number): number[] {
  return shown.includes(loginCount) ? [...shown] : [...shown, loginCount];
}

/** The schema's own cap (zod/mini keeps what its checks set in `_zod.bag`; classic's `.maxLength` read the same). */
export const FEEDBACK_MESSAGE_MAX = feedbackRequestSchema.shape.message._zod.bag.maximum ?? 5000;

/** Send needs a message with something other than spaces (spec §5). */
export function canSendFeedback(message: string): boolean {
  return feedbackRequestSchema.shape.message.safeParse(message).success;
}

export interface FeedbackDraft {
  readonly message: string;
  readonly rating: FeedbackRating | null;
  /** the page the widget was opened on (location.pathname) */
  readonly route: string;
}

/** The POST /feedback body, checked by the schema the handler uses; null when it may not be sent. */
export function feedbackBody(draft: FeedbackDraft) {
  const parsed = feedbackRequestSchema.safeParse({
    message: draft.message,
    rating: draft.rating ?? undefined,
    route: draft.route,
  });
  return parsed.success ? parsed.data : null;
}
