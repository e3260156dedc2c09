// @vitest-environment happy-dom
/**
 * One file under review (features/downloads/review/review-file.tsx) in happy-dom with the real
 * English catalogue: the keyboard's pin (placed in the middle, moved by the arrow keys, taken by
 * the comment, removed by Escape), comments written as text, authors marked, a timecode that
 * seeks, and a read-only review without its forms.
 */
import { act } from 'react';
import { createInstance, type i18n as I18n } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ReviewAnchor, ReviewComment } from '@domain/review';
import type { FilePreview } from '@domain/previews';
import reviewer from '@/i18n/locales/reviewer/en.json';
import { ReviewFile } from '@/features/downloads/review/review-file';
import { threadsOf } from '@/features/downloads/review/review-logic';
import { click, mount, settle } from '../../../helpers/dom-render';

let i18n: I18n;
beforeAll(async () => {
  i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: 'en',
    resources: { en: { reviewer } },
    interpolation: { escapeValue: false },
  });
});

let view: ReturnType<typeof mount> | null = null;
afterEach(() => {
  view?.unmount();
  view = null;
});

const file = { fileId: 'f1', fileName: 'poster.png', previewKind: 'image', version: 2, versionFileIds: ['f1', 'f1b'] };
const imagePreview: FilePreview = {
  fileId: 'f1b',
  kind: 'image',
  icon: 'image',
  url: 'https://files.example/poster.png',
};
const comments: ReviewComment[] = [
  {
    commentId: 'c1',
    fileId: 'f1',
    version: 1,
    author: { kind: 'visitor', name: 'Robin <script>' },
    body: '<img src=x onerror=alert(1)> bigger',
    anchor: { kind: 'point', x: 0.25, y: 0.5 },
    createdAt: 1_700_000_000_000,
  },
  {
    commentId: 'c2',
    fileId: 'f1',
    version: 2,
    parentId: 'c1',
    author: { kind: 'verified', email: 'client@example.com' },
    body: 'Agreed',
    createdAt: 1_700_000_100_000,
  },
  {
    commentId: 'c3',
    fileId: 'f1',
    version: 2,
    parentId: 'c1',
    author: { kind: 'sender' },
    body: 'On it',
    createdAt: 1_700_000_200_000,
  },
];

function render(options: { writable: boolean; preview?: FilePreview; list?: ReviewComment[] }) {
  const onComment = vi.fn((_body: string, _anchor?: ReviewAnchor, _parent?: string) => Promise.resolve(null));
  view = mount(
    <I18nextProvider i18n={i18n}>
      <ReviewFile
        file={file}
        position={{ n: 1, total: 1 }}
        preview={options.preview ?? imagePreview}
        previewsFailed={false}
        onBroken={() => undefined}
        threads={threadsOf(options.list ?? comments, 'f1')}
        favourite={false}
        decision={undefined}
        writable={options.writable}
        onComment={onComment}
        onFavourite={() => Promise.resolve(null)}
        onDecide={() => Promise.resolve(null)}
      />
    </I18nextProvider>,
  );
  return { onComment };
}

const byTestId = (id: string) => view!.byTestId(id);
const all = (id: string) => [...view!.container.querySelectorAll<HTMLElement>(`[data-testid="${id}"]`)];
function key(element: Element | null, k: string, shiftKey = false) {
  act(() => {
    element!.dispatchEvent(new KeyboardEvent('keydown', { key: k, shiftKey, bubbles: true }));
  });
}

describe('a file under review', () => {
  it('places a pin from the keyboard in the middle, moves it with the arrows and sends it with the comment', async () => {
    const { onComment } = render({ writable: true });
    click(byTestId('review-place-pin'));
    const pin = byTestId('review-draft-pin')!;
    expect(document.activeElement).toBe(pin);
    expect(pin.getAttribute('aria-label')).toBe('Pin at 50% across, 50% down');
    key(pin, 'ArrowRight');
    key(byTestId('review-draft-pin'), 'ArrowDown', true);
    expect(byTestId('review-draft-pin')!.getAttribute('aria-label')).toBe('Pin at 52% across, 60% down');
    expect(byTestId('review-comment-pin')!.textContent).toContain('Pinned at 52%, 60%');

    const body = byTestId('review-comment-body') as HTMLTextAreaElement;
    act(() => {
      const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!;
      setter.call(body, '  Move the logo here  ');
      body.dispatchEvent(new Event('input', { bubbles: true }));
    });
    click(byTestId('review-comment-submit'));
    await settle();
    expect(onComment).toHaveBeenCalledWith('Move the logo here', { kind: 'point', x: 0.52, y: 0.6 });
    // sent: the draft pin is gone
    expect(byTestId('review-draft-pin')).toBeNull();
  });

  it('drops the pin on Escape', () => {
    render({ writable: true });
    click(byTestId('review-place-pin'));
    key(byTestId('review-draft-pin'), 'Escape');
    expect(byTestId('review-draft-pin')).toBeNull();
  });

  it('writes comments and names as text, marks typed names unverified, and numbers the pinned thread', () => {
    render({ writable: true });
    const texts = all('review-comment-text').map((e) => e.textContent);
    expect(texts).toEqual(['<img src=x onerror=alert(1)> bigger', 'Agreed', 'On it']);
    expect(view!.container.querySelector('.rv-body img')).toBeNull();
    expect(all('review-author').map((e) => [e.dataset.kind, e.textContent])).toEqual([
      ['visitor', 'Robin <script>'],
      ['verified', 'client@example.com'],
      ['sender', 'Sender'],
    ]);
    expect(all('review-unverified')).toHaveLength(1);
    expect(all('review-marker').map((m) => m.textContent)).toEqual(['1']);
    expect(byTestId('review-version')!.textContent).toBe('v2');
    // the thread began on the first version
    expect(all('review-thread')[0]!.textContent).toContain('on v1');
  });

  it('seeks the player to a thread’s time', () => {
    const timed: ReviewComment[] = [
      {
        commentId: 't1',
        fileId: 'f1',
        version: 2,
        author: { kind: 'visitor', name: 'Robin' },
        body: 'Cut here',
        anchor: { kind: 'time', seconds: 65.5 },
        createdAt: 1,
      },
    ];
    render({
      writable: true,
      preview: { fileId: 'f1b', kind: 'video', icon: 'video', url: 'https://files.example/cut.webm' },
      list: timed,
    });
    const chip = byTestId('review-thread-time')!;
    expect(chip.textContent).toBe('at 1:05');
    click(chip);
    expect((byTestId('review-media') as HTMLVideoElement).currentTime).toBe(65.5);
  });

  it('shows no forms when read only', () => {
    render({ writable: false });
    expect(byTestId('review-comment-form')).toBeNull();
    expect(byTestId('review-reply-open')).toBeNull();
    expect(byTestId('review-approve')).toBeNull();
    expect(byTestId('review-image-button')).toBeNull();
    expect((byTestId('review-favourite') as HTMLButtonElement).disabled).toBe(true);
  });
});
