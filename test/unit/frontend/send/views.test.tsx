import type { i18n as I18n } from 'i18next';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import { DoneView } from '@/features/send/components/done-view';
import { ProgressView } from '@/shared/upload/components/progress-view';
import { QuickSend } from '@/features/send/components/quick-send';
import { VerifyStep } from '@/shared/upload/components/verify-step';
import type { UploadProgress } from '@/shared/upload/engine';
import { createTestI18n, renderHtml, type Markup } from '../../../helpers/render-html';

// No DOM in the unit project: these render the views to HTML and read what a first paint shows.
let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});

function doc(element: ReactElement): Markup {
  return renderHtml(i18n, <MemoryRouter>{element}</MemoryRouter>);
}

const progress = (p: Partial<UploadProgress>): UploadProgress => ({
  bytesDone: 0,
  bytesTotal: 100,
  filesDone: 0,
  filesTotal: 2,
  speedBps: 0,
  etaMs: null,
  phase: 'getting-ready',
  tryNumber: 1,
  ...p,
});

describe('quick-send form, first paint (guest)', () => {
  const page = () => doc(<QuickSend />);

  it('has the pickers, fields and submit the end-to-end tests address', () => {
    const view = page();
    for (const id of [
      'quick-send',
      'file-input',
      'folder-input',
      'recipients-input',
      'sender-email',
      'message',
      'send-submit',
      'send-submit-area',
      'options-toggle',
    ]) {
      expect(() => view.tag(id), id).not.toThrow();
    }
    expect(view.tag('file-input')).toContain('type="file"');
    expect(view.tag('file-input')).toContain('multiple');
  });

  it('shows the submit as blocked and says why, without disabling the click', () => {
    const view = page();
    const submit = view.tag('send-submit');
    expect(submit).toContain('aria-disabled="true"');
    expect(submit).not.toMatch(/\sdisabled=/);
    const why = /aria-describedby="([^"]+)"/.exec(submit)?.[1];
    expect(view.html).toContain(`id="${why}" class="sr-only">Add at least one file<`);
    expect(view.text()).toContain('Transfer');
  });

  it("uses the spec's labels and hint, and summarises expiry and password", () => {
    const text = page().text();
    expect(text).toContain('Email to (Enter or , to separate)');
    expect(text).toContain("Enter your work email and we'll let you know when your files get downloaded.");
    expect(text).toContain('Avoid verifying every time');
    expect(text).toContain('Expires in 1 Week');
    expect(text).toContain('No password');
    expect(text).toContain('0/280');
  });

  it('a signed-in sender is not asked for their email', () => {
    const view = doc(<QuickSend session={{ accessToken: 'token', email: 'me@corp.com', role: 'pro' }} />);
    expect(() => view.tag('sender-email')).toThrow();
    expect(() => view.tag('recipients-input')).not.toThrow();
  });

  it('speaks the reader language', async () => {
    await i18n.changeLanguage('ja');
    try {
      const text = page().text();
      expect(text).toContain('ファイルを送信');
      expect(text).toContain('転送');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});

/** The bar's width in %, from the style of the element with class qs-bar-fill (NaN without one). */
const barWidth = (html: string): number => {
  const tag = /<[^>]*class="qs-bar-fill"[^>]*>/.exec(html)?.[0] ?? '';
  return Number(/style="width:([\d.]+)%;?"/.exec(tag)?.[1] ?? NaN);
};

describe('progress view', () => {
  it('starts at 0 % with a visible bar and no estimate yet', () => {
    const view = doc(<ProgressView progress={progress({})} onCancel={() => undefined} />);
    expect(view.tag('progress-percent')).toBeTruthy();
    expect(view.html).toMatch(/data-testid="progress-percent"[^>]*>0<small>%<\/small>/);
    expect(view.html).toContain('aria-valuenow="0"');
    expect(barWidth(view.html)).toBe(3);
    const text = view.text();
    expect(text).toContain('Getting Ready...');
    expect(text).toContain('Calculating...');
    expect(text).toContain('0 of 2 files');
    expect(text).toContain('0 B of 100 B uploaded');
    expect(text).toContain('Cancel');
  });

  it('shows percent, speed, time left and counts while transferring', () => {
    const view = doc(
      <ProgressView
        progress={progress({
          bytesDone: 550_000_000,
          bytesTotal: 1_000_000_000,
          filesDone: 1,
          speedBps: 2_500_000,
          etaMs: 180_000,
          phase: 'transferring',
        })}
        onCancel={() => undefined}
      />,
    );
    expect(view.firstText('progress-percent')).toBe('55');
    expect(barWidth(view.html)).toBe(55);
    const text = view.text();
    expect(text).toContain('Transferring...');
    expect(text).toContain('2.5 MB/s');
    expect(text).toContain('About 3 minutes remaining');
    expect(text).toContain('1 of 2 files');
    expect(text).toContain('550 MB of 1 GB uploaded');
    expect(text).toContain('50% uploaded');
  });
});

describe('progress view agrees with itself', () => {
  /** Visible share of the ring: the dash plus its two round caps (half the stroke each), over the circumference. */
  const ringShare = (html: string): number => {
    const circle = /<circle[^>]*data-testid="progress-ring"[^>]*>/.exec(html);
    if (!circle) return 0;
    const [dash, length] = /stroke-dasharray="([^"]+)"/.exec(circle[0])![1]!.split(' ').map(Number) as [number, number];
    const stroke = Number(/stroke-width="([^"]+)"/.exec(circle[0])![1]);
    return Math.min(1, (dash + stroke) / length);
  };

  it('draws the ring at the share the bar shows (93 % is an open ring, not a full one)', () => {
    for (const done of [10, 50, 93, 97, 99]) {
      const view = doc(
        <ProgressView
          progress={progress({ bytesDone: done * 10, bytesTotal: 1000, phase: 'transferring', etaMs: 5_000 })}
          onCancel={() => undefined}
        />,
      );
      expect(view.firstText('progress-percent')).toBe(String(done));
      expect(barWidth(view.html)).toBe(done);
      expect(ringShare(view.html) * 100, `${done} %`).toBeCloseTo(done, 5);
    }
  });

  it('closes the ring only at 100 % and draws none at 0 %', () => {
    const full = doc(
      <ProgressView
        progress={progress({ bytesDone: 1000, bytesTotal: 1000, phase: 'transferring' })}
        onCancel={() => undefined}
      />,
    );
    expect(ringShare(full.html)).toBe(1);
    expect(barWidth(full.html)).toBe(100);
    const none = doc(<ProgressView progress={progress({})} onCancel={() => undefined} />);
    expect(ringShare(none.html)).toBe(0);
  });

  it('never says Calculating... once every byte is in, even without a speed estimate', () => {
    const view = doc(
      <ProgressView
        progress={progress({ bytesDone: 1000, bytesTotal: 1000, filesDone: 2, phase: 'transferring', etaMs: null })}
        onCancel={() => undefined}
      />,
    );
    expect(view.text()).not.toContain('Calculating...');
    expect(view.text()).toContain('Less than 30 seconds remaining');
  });

  it('while the server completes the files, says it is finishing with a moving segment instead of a stuck 100 %', () => {
    const view = doc(
      <ProgressView
        progress={progress({ bytesDone: 1000, bytesTotal: 1000, filesDone: 2, phase: 'almost-done', etaMs: null })}
        onCancel={() => undefined}
      />,
    );
    expect(view.firstText('progress-finishing')).toBe('Finishing upload…');
    expect(view.firstText('progress-remaining')).toBe('Every byte is in: putting your files together');
    expect(view.has('progress-percent')).toBe(false);
    expect(view.text()).not.toContain('Less than 30 seconds remaining');
    // an indeterminate progress bar: no value, a text saying what happens; a quarter ring that turns (CSS)
    expect(view.attr('progress-ring-box', 'aria-valuenow')).toBeNull();
    expect(view.attr('progress-ring-box', 'aria-valuetext')).toBe('Finishing upload…');
    expect(view.attr('progress-ring-box', 'class')).toContain('qs-ring-busy');
    expect(ringShare(view.html) * 100).toBeCloseTo(25, 5);
    expect(view.firstText('progress-files')).toBe('2 of 2 files');
  });
});

describe('done view', () => {
  it('gives a guest the link, who was mailed, and the way to keep files', () => {
    const view = doc(
      <DoneView
        link="https://app.test/w/abc1234"
        recipients={['a@x.org', 'b@x.org']}
        signedIn={false}
        onSendAnother={() => undefined}
        onKeepFiles={() => undefined}
      />,
    );
    expect(view.tag('done-link')).toContain('value="https://app.test/w/abc1234"');
    expect(view.attr('done-link', 'readonly')).toBe('');
    expect(view.tag('copy-link')).toBeTruthy();
    expect(view.text()).toContain("You're all done!");
    expect(view.text()).toContain('The download email has been sent to a@x.org + 1');
    expect(view.text()).toContain('Keep these files for later?');
    expect(view.text()).not.toContain('Send Another?');
  });

  it('offers a signed-in sender another send; a link send names no recipient', () => {
    const view = doc(
      <DoneView
        link="https://app.test/w/abc1234"
        recipients={[]}
        signedIn
        onSendAnother={() => undefined}
        onKeepFiles={() => undefined}
      />,
    );
    expect(view.text()).toContain('Send Another?');
    expect(view.text()).not.toContain('The download email has been sent');
  });
});

describe('verification step', () => {
  it('asks for the 5-digit code with Verify disabled until it is complete', () => {
    const view = doc(
      <VerifyStep email="me@corp.com" lang="en" onVerified={() => undefined} onBack={() => undefined} />,
    );
    expect(view.attr('verify-button', 'disabled')).toBe('');
    expect(view.attr('code-input', 'inputmode')).toBe('numeric');
    expect(view.attr('code-input', 'autocomplete')).toBe('one-time-code');
    expect(view.text()).toContain('We sent a 5 digit code to me@corp.com.');
    expect(view.text()).toContain('Resend code');
    expect(view.tag('verify-back')).toContain('aria-label="Back"');
  });
});
