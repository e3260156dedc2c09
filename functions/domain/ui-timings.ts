/** Interface timings and prompts of spec §2, §4 and §9. */
import { HOUR_MS, SECOND_MS } from './units';

export const MODAL_HIDE_MS = 6 * SECOND_MS;
export const WELCOME_BACK_AFTER_MS = 6 * HOUR_MS;
export const RECORDING_COUNTDOWN_SECONDS = 3;
export const RESEND_LOCK_MS = 2 * SECOND_MS;
export const ERROR_POPUP_MS = 8 * SECOND_MS;
export const TOAST_MS = 15_500;
export const WARNING_TOAST_MS = 8_500;
export const MARKETING_TOAST_MS = 5_800;
export const MARKETING_TOAST_CYCLE_MS = 2 * SECOND_MS;
export const NOTIFICATION_BADGE_MAX = 9;
/** Spec §9: a download page request (the transfer, a file's URL, the ZIP) waits this long per attempt. */
export const DOWNLOAD_REQUEST_TIMEOUT_MS = 40 * SECOND_MS;

export const FEEDBACK_LOGIN_COUNTS = [3, 18, 35] as const;
export const UPGRADE_BOX_FROM_LOGIN = 2;

/** The feedback modal opens by itself at exactly these login counts. */
export function shouldPromptFeedback(loginCount: number): boolean {
  return (FEEDBACK_LOGIN_COUNTS as readonly number[]).includes(loginCount);
}

/** Top-nav upgrade box: free users from their second login, not on small screens. */
export function showUpgradeBox(input: { role: string; loginCount: number; smallScreen: boolean }): boolean {
  return input.role === 'free' && input.loginCount >= UPGRADE_BOX_FROM_LOGIN && !input.smallScreen;
}
