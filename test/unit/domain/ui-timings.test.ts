import { describe, it, expect } from 'vitest';
import {
  ERROR_POPUP_MS,
  FEEDBACK_LOGIN_COUNTS,
  MARKETING_TOAST_CYCLE_MS,
  MARKETING_TOAST_MS,
  MODAL_HIDE_MS,
  RECORDING_COUNTDOWN_SECONDS,
  RESEND_LOCK_MS,
  TOAST_MS,
  UPGRADE_BOX_FROM_LOGIN,
  WARNING_TOAST_MS,
  WELCOME_BACK_AFTER_MS,
  shouldPromptFeedback,
  showUpgradeBox,
} from '../../../functions/domain/ui-timings';

describe('interface timings', () => {
  it('are the spec durations', () => {
    expect(MODAL_HIDE_MS).toBe(6000);
    expect(WELCOME_BACK_AFTER_MS).toBe(6 * 3_600_000);
    expect(RECORDING_COUNTDOWN_SECONDS).toBe(3);
    expect(RESEND_LOCK_MS).toBe(2000);
    expect(ERROR_POPUP_MS).toBe(8000);
    expect(TOAST_MS).toBe(15_500);
    expect(WARNING_TOAST_MS).toBe(8_500);
    expect(MARKETING_TOAST_MS).toBe(5_800);
    expect(MARKETING_TOAST_CYCLE_MS).toBe(2000);
  });
});

describe('login prompts', () => {
  it('ask for feedback at login counts 3, 18 and 35 only', () => {
    expect(FEEDBACK_LOGIN_COUNTS).toEqual([3, 18, 35]);
    const prompted = Array.from({ length: 50 }, (_, i) => i).filter(shouldPromptFeedback);
    expect(prompted).toEqual([3, 18, 35]);
  });

  it('show the upgrade box to free users from the second login, not on small screens', () => {
    expect(UPGRADE_BOX_FROM_LOGIN).toBe(2);
    expect(showUpgradeBox({ role: 'free', loginCount: 1, smallScreen: false })).toBe(false);
    expect(showUpgradeBox({ role: 'free', loginCount: 2, smallScreen: false })).toBe(true);
    expect(showUpgradeBox({ role: 'free', loginCount: 2, smallScreen: true })).toBe(false);
    expect(showUpgradeBox({ role: 'pro', loginCount: 9, smallScreen: false })).toBe(false);
  });
});
