import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closePage, openPage, startBrowserStack, stopBrowserStack, type BrowserStack } from '../helpers/browser-stack';
import { waitForMail } from '../helpers/transfers';

/**
 * Plans and billing as a new user meets them in Chromium, on the simulated payment provider
 * (the default for the tests): pricing -> Pro yearly -> registration with the mailed code ->
 * the simulator's checkout, where the declined test card shows the provider's words and stays,
 * and 4242... starts the trial -> /thankyou2 waits for the webhook -> the account shows
 * 'Trialing' with 7 days left -> the billing page replaces the card and cancels at the period end.
 */
let stack: BrowserStack;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  stack = await startBrowserStack();
}, 300_000);

afterAll(() => stopBrowserStack(stack));
beforeEach(async () => {
  ({ context, page } = await openPage(stack.browser));
});
afterEach(() => closePage(context));

async function codeFrom(email: string): Promise<string> {
  const mail = await waitForMail(stack.app, email, /\b\d{5}\b/);
  return /\b(\d{5})\b/.exec(mail.body.text)![1]!;
}

async function fillCard(p: Page, number: string) {
  await p.getByTestId('card-number').fill(number);
  await p.getByTestId('card-expiry').fill('12 / 34');
  await p.getByTestId('card-cvc').fill('123');
  await p.getByTestId('card-name').fill('Trial Example');
}

describe('a new user on a paid plan', () => {
  const email = 'e2e.trial@example.com';

  it('chooses Pro yearly, registers, is declined with one card and starts the trial with another', async () => {
    await page.goto(`${stack.web.url}/pricing`);
    await page.getByRole('button', { name: /Yearly/ }).click();
    await page.waitForURL((u) => u.searchParams.get('save') === '1');
    await page.getByTestId('pricing-card-pro').click();
    await page.waitForURL(
      (u) =>
        u.pathname === '/register' && u.searchParams.get('plan') === 'pro' && u.searchParams.get('period') === 'year',
    );
    expect(await page.getByTestId('register-plan').textContent()).toContain('Pro');

    await page.getByTestId('register-email').fill(email);
    await page.getByTestId('register-continue').click();
    await page.waitForURL((u) => u.searchParams.get('step') === '2');
    const code = await codeFrom(email);
    for (let i = 0; i < 5; i += 1) await page.getByTestId(`code-box-${i}`).fill(code[i]!);
    await page.waitForURL((u) => u.searchParams.get('step') === '3' && u.searchParams.get('period') === 'year');
    await page.getByTestId('register-name').fill('Trial Example');
    await page.getByTestId('register-password').fill('trial-pass');
    await page.getByTestId('register-submit').click();

    // step 3 continues with the payment: the simulator's checkout for Pro yearly
    await page.getByTestId('simulated-checkout').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('checkout-price').textContent()).toBe('$228 per year');
    expect(await page.getByTestId('checkout-trial-note').textContent()).toBe('7-day free trial, no charge for 7 days');
    expect(new URL(page.url()).searchParams.get('step')).toBe('3');

    // the declined card: the provider's words, and the checkout stays
    await fillCard(page, '4000 0000 0000 0002');
    await page.getByTestId('checkout-submit').click();
    await page.getByTestId('checkout-error').getByText('Your card was declined.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/register');
    await expect.poll(() => page.getByTestId('checkout-submit').isEnabled()).toBe(true);

    // the good card starts the trial
    await fillCard(page, '4242 4242 4242 4242');
    await page.getByTestId('checkout-submit').click();
    await page.waitForURL((u) => u.pathname === '/thankyou2' && u.searchParams.has('session_id'), { timeout: 60_000 });
    await page.getByTestId('thankyou-confirmed').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('thankyou-confirmed').textContent()).toContain('7 days left');
    await page.getByTestId('thankyou-dashboard').click();
    await page.getByTestId('dashboard-greeting').waitFor();

    // the account shows the plan as trialing with 7 days left
    await page.goto(`${stack.web.url}/dash/account`);
    await page.getByTestId('subscription-status').waitFor();
    expect(await page.getByTestId('subscription-status').getAttribute('data-status')).toBe('trialing');
    expect(await page.getByTestId('subscription-status').textContent()).toBe('Trialing');
    expect(await page.getByTestId('trial-days-left').textContent()).toMatch(/^7 days left in trial/);
    expect(await page.getByTestId('account-plan-name').textContent()).toContain('Pro');

    // the account menu's 'Billing' leads to the billing page (spec §2: hidden from team members only)
    await page.getByTestId('nav-avatar').click();
    expect(await page.getByTestId('nav-billing').getAttribute('href')).toBe('/dash/account/billing');
    await page.getByTestId('nav-avatar').click();

    // the billing page: the plan, the card; replace the card, then cancel at the period end
    await page.getByTestId('account-billing').click();
    await page.waitForURL((u) => u.pathname === '/dash/account/billing');
    await page.getByTestId('billing-subscription').waitFor();
    expect(await page.getByTestId('subscription-status').textContent()).toBe('Trialing');
    expect(await page.getByTestId('billing-card-summary').textContent()).toContain('4242');
    expect(await page.getByTestId('billing-period').textContent()).toBe('Yearly');

    await page.getByTestId('billing-replace-card').click();
    await page.getByTestId('replace-card').getByTestId('card-number').waitFor();
    // 0341 attaches (only later charges fail): the card on file changes now
    await fillCard(page, '4000 0000 0000 0341');
    await page.getByTestId('replace-card-save').click();
    await page.getByTestId('billing-notice').getByText('ending in 0341').waitFor({ timeout: 60_000 });
    await expect.poll(async () => page.getByTestId('billing-card-summary').textContent()).toContain('0341');

    await page.getByTestId('billing-cancel').click();
    await page.getByTestId('billing-cancel-dialog').waitFor();
    await page.getByTestId('billing-cancel-dialog-confirm').click();
    await page.getByTestId('billing-resume').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('billing-renewal').getAttribute('data-kind')).toBe('ends');
    expect(await page.getByTestId('billing-notice').textContent()).toBe(
      'Your subscription is cancelled at the end of the period.',
    );

    // the old address still leads here
    await page.goto(`${stack.web.url}/dash/billing`);
    await page.waitForURL((u) => u.pathname === '/dash/account/billing');
    await page.getByTestId('billing-resume').waitFor();

    // the trial's $0 invoice opens as the simulator's printable invoice page, inside the app
    await page.getByTestId('invoice-view').first().click();
    await page.waitForURL((u) => u.pathname.startsWith('/dash/account/billing/invoices/'));
    expect(await page.getByTestId('invoice-total').textContent()).toBe('$0');
  }, 300_000);
});
