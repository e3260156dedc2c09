import type { i18n as I18n } from 'i18next';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '@domain/auth-api';
import { GB } from '@domain/units';
import { env } from '@/config/env';
import { AccountPage } from '@/app/screens/account-page';
import { DashLayout } from '@/app/screens/dash-layout';
import { DashboardHome } from '@/app/screens/dashboard-home';
import { FeedbackDialog } from '@/features/dashboard/components/feedback-dialog';
import { LimitScreen } from '@/features/dashboard/components/limit-screen';
import { ProfilePage } from '@/features/dashboard/components/profile-page';
import { StorageMeter } from '@/features/dashboard/components/storage-meter';
import { RecipientsField } from '@/shared/send-form/components/recipients-field';
import { SessionProvider } from '@/lib/session/session-provider';
import { SessionStore } from '@/lib/session/session-store';
import { createTestI18n, renderHtml, renderHtmlAsync, type Markup } from '../../../helpers/render-html';

// No DOM in the unit project: the views render to HTML and the assertions read a first paint.
let i18n: I18n;
beforeAll(async () => {
  i18n = await createTestI18n();
});

const USER: SessionUser = {
  _id: 'u1',
  email: 'ada@analytical.org',
  fullName: 'Ada Lovelace',
  greetingName: 'Ada',
  company: 'Analytical Engines',
  showLogoNav: false,
  role: 'pro',
  status: 'active',
  isTeamMember: false,
  loginCount: 5,
  storageUsed: 20 * GB,
  storageLimit: 200 * GB,
  storageState: 'ok',
  thisMonthsTransfers: 4,
  monthlyTransferLimit: null,
  blocked: null,
};

/** A real session store holding `user`, as after sign-in; its network is never reached here. */
function signedIn(user: SessionUser): SessionStore {
  const store = new SessionStore({
    api: () => Promise.reject(new Error('no network in this test')),
    flagStorage: null,
    now: () => 0,
    setTimer: () => null,
    clearTimer: () => undefined,
    reload: () => undefined,
  });
  store.completeSignup({ accessToken: 'token', expiresAt: 3_600_000, user });
  return store;
}

function doc(element: ReactElement, user: SessionUser = USER, path = '/dash'): Markup {
  return renderHtml(
    i18n,
    <SessionProvider store={signedIn(user)}>
      <MemoryRouter initialEntries={[path]}>{element}</MemoryRouter>
    </SessionProvider>,
  );
}

/** The same for a tree with a lazy part (the dashboard frame's what's-new button). */
function docAsync(element: ReactElement, user: SessionUser = USER, path = '/dash'): Promise<Markup> {
  return renderHtmlAsync(
    i18n,
    <SessionProvider store={signedIn(user)}>
      <MemoryRouter initialEntries={[path]}>{element}</MemoryRouter>
    </SessionProvider>,
  );
}

describe('dashboard home', () => {
  it('greets the user and offers the signed-in quick send with contact suggestions', () => {
    const view = doc(<DashboardHome />);
    expect(view.tag('dashboard-greeting')).toBeTruthy();
    expect(view.text()).toContain('Hello, Ada');
    expect(view.has('quick-send')).toBe(true);
    expect(view.has('sender-email')).toBe(false);
    expect(view.tag('recipients-input')).toContain('role="combobox"');
    expect(view.has('limit-screen')).toBe(false);
  });

  it('summarises storage and transfers', () => {
    const view = doc(<DashboardHome />);
    expect(view.tag('storage-bar')).toContain('data-state="ok"');
    expect(view.text()).toContain('20 GB of 200 GB used');
    expect(view.text()).toContain('Pro plan');
    expect(view.text()).toContain('4 (no monthly limit)');
    expect(view.has('dashboard-upgrade')).toBe(false);
  });

  it('shows a free user their monthly cap and the way to upgrade', () => {
    const view = doc(<DashboardHome />, {
      ...USER,
      role: 'free',
      storageLimit: 10 * GB,
      storageUsed: 9.5 * GB,
      monthlyTransferLimit: 10,
    });
    expect(view.text()).toContain('4 of 10');
    expect(view.tag('storage-bar')).toContain('data-state="warning"');
    expect(view.text()).toContain('Your storage is almost full: 500 MB left.');
    expect(view.tag('dashboard-upgrade')).toContain('href="/pricing"');
  });

  it('shows the limit screen instead of the form when the account is blocked', () => {
    const view = doc(<DashboardHome />, {
      ...USER,
      role: 'free',
      storageUsed: 10 * GB,
      storageLimit: 10 * GB,
      storageState: 'full',
      blocked: 'storage_full',
    });
    expect(view.tag('limit-screen')).toContain('data-reason="storage_full"');
    expect(view.has('quick-send')).toBe(false);
    expect(view.tag('storage-bar')).toContain('data-state="full"');
    const text = view.text();
    expect(text).toContain('Your storage is now full.');
    expect(text).toContain('Your plan includes 10 GB of storage.');
    expect(text).toContain('Consider upgrading your plan or deleting some transfers.');
    // said once, by the limit screen, which also carries the one upgrade button
    expect(text.split('Your storage is now full.')).toHaveLength(2);
    expect(view.has('dashboard-upgrade')).toBe(false);
  });
});

describe('limit screen', () => {
  const screen = (reason: Parameters<typeof LimitScreen>[0]['reason'], role = 'pro') =>
    doc(
      <LimitScreen
        reason={reason}
        user={{ role, thisMonthsTransfers: 10, monthlyTransferLimit: role === 'free' ? 10 : null, storageLimit: 0 }}
      />,
    );

  it('says why, offers the upgrade and a support contact', () => {
    const view = screen('trial_expired');
    expect(view.tag('limit-screen')).toContain('data-reason="trial_expired"');
    expect(view.text()).toContain('Your trial has expired');
    expect(view.tag('limit-upgrade')).toContain('href="/dash/account?tab=1"');
    expect(view.text()).toContain('Upgrade your plan');
    expect(view.tag('limit-support')).toContain(`href="mailto:${env.supportEmail}"`);
    expect(view.text()).toContain(`Questions? Contact us at ${env.supportEmail}`);
  });

  it.each([
    ['past_due', "We're sorry, but your account is currently suspended. You still have access to your data."],
    ['revoked', "We're sorry, but your account is currently suspended. You still have access to your data."],
    ['subscription_over', 'Your subscription is over.'],
    ['over_transfer_limit', "Your Free plan is limited to 10 transfers a month, and you've used all 10."],
  ] as const)('%s', (reason, expected) => {
    expect(screen(reason, reason === 'over_transfer_limit' ? 'free' : 'pro').text()).toContain(expected);
  });

  // every block reason has its words, the upgrade to the account's plan tab and the support line
  it.each([
    ['trial_expired', 'Your trial has expired'],
    ['subscription_over', 'Your subscription is over.'],
    ['revoked', "We're sorry, but your account is currently suspended. You still have access to your data."],
    ['past_due', "We're sorry, but your account is currently suspended. You still have access to your data."],
    ['unpaid', "We're sorry, but your account is currently suspended. You still have access to your data."],
    ['storage_full', 'Your storage is now full.'],
    ['over_transfer_limit', 'Over transfer limit'],
  ] as const)('%s: its words, Upgrade your plan to /dash/account?tab=1, and the support line', (reason, expected) => {
    const view = screen(reason, reason === 'over_transfer_limit' ? 'free' : 'pro');
    expect(view.text()).toContain(expected);
    expect(view.tag('limit-upgrade')).toContain('href="/dash/account?tab=1"');
    expect(view.firstText('limit-upgrade')).toBe('Upgrade your plan');
    expect(view.tag('limit-support')).toContain(`href="mailto:${env.supportEmail}"`);
  });

  it("speaks the reader's language", async () => {
    await i18n.changeLanguage('ja');
    try {
      const text = screen('storage_full').text();
      expect(text).toContain('ストレージがいっぱいです。');
      expect(text).toContain('200 GB');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});

describe('storage bar', () => {
  it.each([
    [0.5, 'ok'],
    [0.9, 'warning'],
    [1, 'full'],
  ] as const)('at %s of the allowance is %s', (ratio, state) => {
    const view = doc(<StorageMeter used={ratio * 100 * GB} limit={100 * GB} />);
    expect(view.tag('storage-bar')).toContain(`data-state="${state}"`);
    expect(view.tag('storage-bar')).toContain('role="meter"');
  });
});

describe('feedback', () => {
  it('offers a Feedback button in the dashboard frame', async () => {
    const view = await docAsync(
      <Routes>
        <Route path="/dash" element={<DashLayout />}>
          <Route index element={<p>child</p>} />
        </Route>
      </Routes>,
    );
    expect(view.tag('feedback-open')).toContain('type="button"');
    expect(view.text()).toContain('child');
    expect(view.text()).toContain('Account');
  });

  it('asks for a rating Bad / Fine / Fantastic and a message, with Send disabled while empty', () => {
    const view = doc(<FeedbackDialog onClose={() => undefined} />);
    expect(view.tag('feedback-modal')).toMatch(/^<dialog/);
    for (const rating of ['Bad', 'Fine', 'Fantastic'])
      expect(view.tag(`feedback-rating-${rating}`)).toContain('aria-pressed="false"');
    expect(view.tag('feedback-message')).toContain('required');
    expect(view.attr('feedback-send', 'disabled')).toBe('');
    expect(view.text()).toContain('How are we doing?');
  });
});

describe('profile', () => {
  it('has the name fields, save, and picture inputs limited to images', () => {
    const view = doc(<ProfilePage />);
    expect(view.tag('profile-full-name')).toContain('value="Ada Lovelace"');
    expect(view.tag('profile-greeting-name')).toContain('value="Ada"');
    expect(view.tag('profile-company')).toContain('value="Analytical Engines"');
    expect(view.tag('profile-save')).toContain('type="submit"');
    for (const id of ['profile-picture-input', 'profile-logo-input']) {
      expect(view.tag(id)).toContain('type="file"');
      expect(view.tag(id)).toContain('accept="image/png,image/jpeg,image/gif,image/webp"');
    }
    expect(view.text()).toContain('PNG, JPEG, GIF or WebP, up to 5 MB.');
  });

  it('draws initials without a picture and the short-lived URL with one', () => {
    const without = doc(<ProfilePage />);
    expect(without.tag('profile-picture-preview')).toMatch(/^<span/);
    expect(without.html).toMatch(/data-testid="profile-picture-preview"[^>]*>AL</);
    expect(without.has('profile-picture-remove')).toBe(false);
    const withPic = doc(<ProfilePage />, { ...USER, profilePic: 'https://bucket.example/p.png?X-Amz-Expires=600' });
    expect(withPic.tag('profile-picture-preview')).toMatch(/^<img/);
    expect(withPic.tag('profile-picture-preview')).toContain('src="https://bucket.example/p.png?X-Amz-Expires=600"');
    expect(withPic.has('profile-picture-remove')).toBe(true);
  });
});

describe('account', () => {
  it('shows the plan, its limits and the upgrade', () => {
    const view = doc(<AccountPage />);
    expect(view.tag('account-plan-name')).toBeTruthy();
    const text = view.text();
    expect(text).toContain('Pro plan');
    expect(text).toContain('Active');
    expect(text).toContain('25 GB');
    // the upgrade is the account's plan tab (spec §2: tab 1), the billing page beside it
    expect(view.tag('account-upgrade')).toContain('href="/dash/account?tab=1"');
    expect(view.tag('account-billing')).toContain('href="/dash/account/billing"');
    expect(view.tag('storage-bar')).toContain('data-state="ok"');
  });

  it("does not call a free user's signup status unpaid, and a team member has no upgrade", () => {
    const free = doc(<AccountPage />, { ...USER, role: 'free', status: 'unpaid' });
    expect(free.text()).not.toContain('Unpaid');
    const member = doc(<AccountPage />, { ...USER, isTeamMember: true });
    expect(member.has('account-upgrade')).toBe(false);
  });
});

describe('recipient box with contacts', () => {
  const field = (contacts?: { email: string }[]) =>
    doc(
      <RecipientsField
        recipients={[]}
        draft="ma"
        invalid={false}
        onType={() => undefined}
        onCommit={() => undefined}
        onRemove={() => undefined}
        contacts={contacts}
      />,
    );

  it('is a combobox whose list opens on focus', () => {
    const view = field([{ email: 'maria@acme.com' }]);
    const input = view.tag('recipients-input');
    expect(input).toContain('role="combobox"');
    expect(input).toContain('aria-expanded="false"');
    // the browser's own address list would cover the suggestions
    expect(input).toMatch(/autocomplete="off"/i);
    expect(view.attr('recipient-suggestions', 'hidden')).toBe('');
  });

  it('stays a plain field for a guest', () => {
    const view = field(undefined);
    expect(view.tag('recipients-input')).not.toContain('combobox');
    expect(view.has('recipient-suggestions')).toBe(false);
  });
});
