import { describe, expect, it } from 'vitest';
import {
  canSendFeedback,
  feedbackBody,
  feedbackPromptDue,
  feedbackStorageKey,
  parseShownCounts,
  withShownCount,
} from '@/features/dashboard/feedback';

describe('feedback prompt (spec §2, §9)', () => {
  it('opens by itself at login counts 3, 18 and 35 only', () => {
    const due = Array.from({ length: 50 }, (_, i) => i).filter((count) => feedbackPromptDue(count, []));
    expect(due).toEqual([3, 18, 35]);
  });

  it('opens at most once per login count', () => {
    let shown: number[] = [];
    expect(feedbackPromptDue(3, shown)).toBe(true);
    shown = withShownCount(shown, 3);
    expect(feedbackPromptDue(3, shown)).toBe(false);
    expect(feedbackPromptDue(18, shown)).toBe(true);
    expect(withShownCount(shown, 3)).toEqual([3]);
  });

  it('reads what was stored, treating anything unreadable as nothing shown', () => {
    expect(parseShownCounts(JSON.stringify(withShownCount([3], 18)))).toEqual([3, 18]);
    expect(parseShownCounts(null)).toEqual([]);
    expect(parseShownCounts('not json')).toEqual([]);
    expect(parseShownCounts('{"3":true}')).toEqual([]);
    expect(parseShownCounts('[3,"18",1.5]')).toEqual([3]);
  });

  it('remembers per user', () => {
    expect(feedbackStorageKey('u1')).not.toBe(feedbackStorageKey('u2'));
  });
});

describe('feedback send (spec §5)', () => {
  it('needs a message with more than spaces', () => {
    expect(canSendFeedback('')).toBe(false);
    expect(canSendFeedback('   \n ')).toBe(false);
    expect(canSendFeedback('Love it')).toBe(true);
  });

  it('sends the trimmed message, the rating if chosen and the route', () => {
    expect(feedbackBody({ message: '  Works well ', rating: 'Fantastic', route: '/dash/account' })).toEqual({
      message: 'Works well',
      rating: 'Fantastic',
      route: '/dash/account',
    });
    expect(feedbackBody({ message: 'Meh', rating: null, route: '/dash' })).toEqual({ message: 'Meh', route: '/dash' });
    expect(feedbackBody({ message: ' ', rating: 'Bad', route: '/dash' })).toBeNull();
  });
});
