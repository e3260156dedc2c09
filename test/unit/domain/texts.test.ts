import { describe, it, expect } from 'vitest';
import { TEXTS, downloadExpiredText, removedFileText, sentToText } from '../../../functions/domain/texts';

describe('spec texts', () => {
  it('carry the spec wording with its spelling slips fixed', () => {
    expect(TEXTS.emailToLabel).toBe('Email to (Enter or , to separate)');
    expect(TEXTS.invalidEmailTo).toBe('Invalid Email To Address');
    expect(TEXTS.tooManyPeopleTitle).toBe("That's too many people");
    expect(TEXTS.tooManyPeopleBody).toBe('You can transfer files up to 50 people with a subscription');
    expect(TEXTS.getTrialAction).toBe('Get 7-day trial');
    expect(TEXTS.signupPasswordTooShort).toBe('Password has to be at least 6 characters');
    expect(TEXTS.avoidVerifyingAction).toBe('Avoid verifying every time');
    expect(TEXTS.resetLinkSent).toBe(
      'If we have an account with that email, please click the included link to reset your password.',
    );
    expect(TEXTS.justYou).toBe("Looks like it's just you!");
    expect(TEXTS.linksReserved).toBe('Hey, right now links are reserved for premium accounts.');
    expect(TEXTS.download401).toBe('This transfer is password protected.');
    expect(TEXTS.download404).toBe('Sorry, this link may have been removed.');
    expect(TEXTS.download500).toBe('Sorry, a network error occurred. Please refresh and try again.');
    expect(TEXTS.emailTaken).toBe('This email has been taken');
    expect(TEXTS.incorrectCode).toBe('Incorrect code, check your email and try again.');
    expect(TEXTS.authFailed).toBe('Unable to log in with provided credentials');
  });

  it('contain none of the source misspellings', () => {
    const all = Object.values(TEXTS).join('\n');
    for (const slip of ['atleast', 'seperate', 'Thats', 'a account', 'everytime', 'its just'])
      expect(all).not.toContain(slip);
  });

  it('fill the removed-file, expired and sent-to templates', () => {
    expect(removedFileText('setup.exe')).toBe(
      'Sorry, we had to remove insecure file: setup.exe. If we made a mistake please let us know below',
    );
    expect(downloadExpiredText('2 days')).toBe('Sorry, this download expired 2 days ago.');
    expect(sentToText(['a@x.com'])).toBe('The download email has been sent to a@x.com');
    expect(sentToText(['a@x.com', 'b@x.com', 'c@x.com'])).toBe('The download email has been sent to a@x.com + 2');
    expect(sentToText([])).toBe('');
  });
});
