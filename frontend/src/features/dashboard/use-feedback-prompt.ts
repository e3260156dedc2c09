import { useEffect } from 'react';
import type { SessionUser } from '@domain/auth-api';
import { feedbackPromptDue, feedbackStorageKey, parseShownCounts, withShownCount } from './feedback';

function readStored(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    // storage blocked (private mode, policy): the prompt may then show again at this count
    return null;
  }
}

function writeStored(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // see readStored
  }
}

/** Opens the feedback prompt by itself at login counts 3, 18 and 35 (spec §2, §9), once per count. */
export function useFeedbackPrompt(user: Pick<SessionUser, '_id' | 'loginCount'>, open: () => void): void {
  useEffect(() => {
    const key = feedbackStorageKey(user._id);
    const shown = parseShownCounts(readStored(key));
    if (!feedbackPromptDue(user.loginCount, shown)) return;
    // Remembered on opening, so closing without sending also counts as shown.
    writeStored(key, JSON.stringify(withShownCount(shown, user.loginCount)));
    open();
  }, [user._id, user.loginCount]);
}
