import { createInstance, type i18n as I18n } from 'i18next';
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SessionUser } from '@domain/auth-api';
import { TopNav } from '@/components/top-nav';
import { LoginPage } from '@/features/auth/components/login-page';
import { RegisterPage } from '@/app/screens/register-page';
import { UpdatePasswordPage } from '@/features/auth/components/update-password-page';
import { SessionProvider } from '@/lib/session/session-provider';
import { SessionStore } from '@/lib/session/session-store';
import { CATALOGUE, FALLBACK_NS } from '../../../helpers/catalogues';
import { attribute, prerenderHtml } from '../../../helpers/render-html';

// No DOM in the unit project: these render first paints to HTML and read them.
let i18n: I18n;
beforeAll(async () => {
  i18n = createInstance();
  await i18n.use(initReactI18next).init({
    lng: 'en',
    resources: { en: CATALOGUE.en },
    fallbackNS: FALLBACK_NS,
    interpolation: { escapeValue: false },
  });
});

function storeWith(user: Partial<SessionUser> | null): SessionStore {
  const store = new SessionStore({
    api: async () => {
      throw new Error('no calls in a first paint');
    },
    flagStorage: null,
    now: () => 0,
    setTimer: () => null,
    clearTimer: () => {},
    reload: () => {},
  });
  if (user) {
    store.completeSignup({
      accessToken: 'tok',
      expiresAt: 3_600_000,
      user: {
        _id: 'u1',
        email: 'jane@example.com',
        fullName: 'Jane Doe',
        showLogoNav: false,
        role: 'free',
        status: 'active',
        isTeamMember: false,
        loginCount: 1,
        storageUsed: 0,
        storageLimit: 1,
        storageState: 'ok',
        thisMonthsTransfers: 0,
        monthlyTransferLimit: 10,
        blocked: null,
        ...user,
      },
    });
  }
  return store;
}

function html(element: ReactElement, url = '/', store = storeWith(null)): string {
  return renderToStaticMarkup(
    <I18nextProvider i18n={i18n}>
      <SessionProvider store={store}>
        <MemoryRouter initialEntries={[url]}>{element}</MemoryRouter>
      </SessionProvider>
    </I18nextProvider>,
  );
}

/** For a tree with a lazy part (the signed-in nav's bell), once that part has loaded. */
async function htmlAsync(element: ReactElement, url = '/', store = storeWith(null)): Promise<string> {
  return await prerenderHtml(
    <I18nextProvider i18n={i18n}>
      <SessionProvider store={store}>
        <MemoryRouter initialEntries={[url]}>{element}</MemoryRouter>
      </SessionProvider>
    </I18nextProvider>,
  );
}

const tag = (markup: string, testId: string): string | null =>
  new RegExp(`<[^>]*data-testid="${testId}"[^>]*>`).exec(markup)?.[0] ?? null;

describe('login page', () => {
  it('prefills the email from ?user=', () => {
    const markup = html(<LoginPage />, '/login?user=jane%40example.com&redirect=%2Fdash%2Ftransfers');
    expect(tag(markup, 'login-email')).toContain('value="jane@example.com"');
    expect(tag(markup, 'login-password')).not.toBeNull();
    expect(tag(markup, 'login-signup')).toContain('href="/pricing"');
  });

  it('?forgotPass starts in forgot-password mode with Back to login', () => {
    const markup = html(<LoginPage />, '/login?forgotPass=true&user=jane%40example.com');
    expect(tag(markup, 'login-email')).toBeNull();
    expect(tag(markup, 'forgot-email')).toContain('value="jane@example.com"');
    expect(tag(markup, 'forgot-submit')).not.toBeNull();
    expect(markup).toContain('Back to login');
  });
});

describe('register page', () => {
  it('step 1 shows the chosen plan with a way back to Pricing, and Continue is off until the email is valid', () => {
    const markup = html(<RegisterPage />, '/register?step=1&plan=pro');
    expect(tag(markup, 'register-plan')).not.toBeNull();
    expect(markup).toMatch(/data-testid="register-plan"[^>]*>.*<strong>Pro<\/strong>/s);
    expect(tag(markup, 'register-change-plan')).toContain('href="/pricing?plan=pro"');
    expect(tag(markup, 'register-continue')).toContain('disabled');
    expect(markup).toContain('Step 1 of 3');
    expect(markup).toContain('href="/support?article=terms"');
    expect(markup).toContain('href="/support?article=privacy"');
  });

  it('an unknown plan shows Free', () => {
    expect(html(<RegisterPage />, '/register?step=1&plan=gold')).toMatch(/<strong>Free<\/strong>/);
  });
});

describe('update password page', () => {
  it('a missing or malformed token disables the form and offers a new link', () => {
    for (const url of ['/updatepassword', '/updatepassword?t=short']) {
      const markup = html(<UpdatePasswordPage />, url);
      expect(tag(markup, 'update-password-invalid'), url).not.toBeNull();
      expect(markup).toContain('href="/login?forgotPass=1"');
      expect(markup).toMatch(/<fieldset[^>]*disabled/);
    }
  });

  it('a well-formed token is being checked before the form is enabled', () => {
    const markup = html(<UpdatePasswordPage />, `/updatepassword?t=${'a'.repeat(43)}`);
    expect(markup).toContain('Checking your reset link');
    expect(markup).toMatch(/<fieldset[^>]*disabled/);
    expect(tag(markup, 'update-password-invalid')).toBeNull();
  });
});

describe('top navigation (spec §2)', () => {
  it('a visitor sees Log in and Try free, no avatar', () => {
    const markup = html(<TopNav />);
    expect(tag(markup, 'nav-login')).toContain('href="/login"');
    expect(tag(markup, 'nav-avatar')).toBeNull();
    expect(tag(markup, 'nav-dash')).toBeNull();
  });

  it('a signed-in user sees Dash and the avatar with initials instead of Log in', async () => {
    const markup = await htmlAsync(<TopNav />, '/', storeWith({}));
    expect(tag(markup, 'nav-login')).toBeNull();
    expect(tag(markup, 'nav-dash')).toContain('href="/dash"');
    expect(markup).toMatch(/data-testid="nav-avatar"[^>]*>.*>JD</s);
  });

  it('the Upgrade box shows for free users from their second login only', async () => {
    expect(tag(await htmlAsync(<TopNav />, '/', storeWith({ role: 'free', loginCount: 1 })), 'nav-upgrade')).toBeNull();
    expect(tag(await htmlAsync(<TopNav />, '/', storeWith({ role: 'free', loginCount: 2 })), 'nav-upgrade')).toContain(
      'href="/pricing"',
    );
    expect(tag(await htmlAsync(<TopNav />, '/', storeWith({ role: 'pro', loginCount: 9 })), 'nav-upgrade')).toBeNull();
  });

  it('a chosen company logo replaces ours', async () => {
    const markup = await htmlAsync(
      <TopNav />,
      '/',
      storeWith({ showLogoNav: true, logoPic: 'https://cdn.example/logo.png', company: 'Acme' }),
    );
    const logo = /<img[^>]*class="brand-custom-logo"[^>]*>/.exec(markup)?.[0] ?? '';
    expect(attribute(logo, 'src')).toBe('https://cdn.example/logo.png');
    expect(attribute(logo, 'alt')).toBe('Acme');
  });
});
