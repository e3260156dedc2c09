import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltAppServer } from '../../frontend/app-server';
import type { LocalApp } from '../../scripts/local/app';
import { seriousAxeViolations } from '../helpers/browser';
import { closePage, logIn, openPage, startBrowserStack, stopBrowserStack } from '../helpers/browser-stack';
import { createUser, sendFiles, waitForMail, type TestUser } from '../helpers/transfers';

/**
 * The teams in Chromium on the built app under its CSP: a business admin invites on
 * /dash/account/teams; the invitee opens the mailed link (read from the SES inbox) in a fresh
 * browser context, joins with name and password, lands on /accept-invite signed in, sees no
 * Domain, Teams or Billing in the account menu and is refused at /dash/account/billing. axe
 * checks the Teams screen and the invite page (0 serious or critical). Then sharing: the admin's
 * quick send lists the member in its Sharing tab; a transfer the admin shared shows under the
 * member's Shared filter and opens read only.
 */
let app: LocalApp;
let web: BuiltAppServer;
let browser: Browser;
let admin: TestUser;
const INVITEE = 'e2e.invitee@example.com';

async function expectAccessible(p: Page) {
  const violations = await seriousAxeViolations(p);
  expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
}

beforeAll(async () => {
  ({ app, web, browser } = await startBrowserStack());
  admin = await createUser(app, 'e2e.team.admin@example.com', 'business');
}, 300_000);

afterAll(() => stopBrowserStack({ app, web, browser }));

describe('teams', () => {
  it('the admin invites; the invitee joins from the mailed link and is a member without Billing, Teams or Domain', async () => {
    let adminContext: BrowserContext | undefined;
    let memberContext: BrowserContext | undefined;
    try {
      const a = await openPage(browser);
      adminContext = a.context;
      await logIn(a.page, web.url, admin.email);
      // the account menu links the Teams screen; /dash/teams lands there
      await a.page.getByTestId('nav-avatar').click();
      await a.page.getByTestId('nav-teams').click();
      await a.page.waitForURL((u) => u.pathname === '/dash/account/teams');
      await a.page.getByTestId('teams-seats').getByText('0 of 5 seats used').waitFor();
      await a.page.getByLabel('Email address').fill(INVITEE);
      await a.page.getByRole('button', { name: 'Send invite' }).click();
      await a.page.getByTestId('teams-notice').getByText(`Invitation sent to ${INVITEE}.`).waitFor();
      await a.page.getByTestId('teams-invite').getByText(INVITEE).waitFor();
      await expectAccessible(a.page);

      const mail = await waitForMail(app, INVITEE, /\/invite\/[A-Za-z0-9_-]{43}/);
      const link = /(https?:\/\/\S+\/invite\/[A-Za-z0-9_-]{43})/.exec(mail.body.text)![1]!;
      expect(new URL(link).origin).toBe(web.url);

      const m = await openPage(browser);
      memberContext = m.context;
      await m.page.goto(link);
      await m.page.getByRole('heading', { name: "Join e2e.team.admin@example.com's team" }).waitFor();
      expect(await m.page.getByLabel('Email').inputValue()).toBe(INVITEE);
      await expectAccessible(m.page);
      await m.page.getByLabel('Full name').fill('Erin Invitee');
      await m.page.getByLabel('Password').fill('Member-pass-123');
      await m.page.getByRole('button', { name: 'Join team' }).click();
      await m.page.waitForURL((u) => u.pathname === '/accept-invite');
      await m.page.goto(`${web.url}/dash`);
      await m.page.getByTestId('dashboard-greeting').waitFor();
      await m.page.getByTestId('nav-avatar').click();
      await m.page.getByTestId('nav-profile').waitFor();
      for (const item of ['nav-teams', 'nav-billing', 'nav-domain'])
        expect(await m.page.getByTestId(item).count(), item).toBe(0);
      await m.page.goto(`${web.url}/dash/account/billing`);
      await m.page.getByTestId('billing-team-managed').waitFor();
      // the used link no longer works
      await m.page.goto(link);
      await m.page.getByTestId('invite-unusable').waitFor();

      await a.page.reload();
      await a.page.getByTestId('teams-member').filter({ hasText: 'Erin Invitee' }).waitFor();
      await a.page.getByTestId('teams-seats').getByText('1 of 5 seats used').waitFor();

      // sharing: the admin's Sharing tab lists the member (with Everyone); a shared transfer is read only for the member
      await a.page.goto(`${web.url}/dash`);
      await a.page.getByTestId('options-toggle').click();
      await a.page.getByRole('tab', { name: 'Sharing' }).click();
      await a.page.getByRole('switch', { name: 'Everyone' }).waitFor();
      await a.page.getByRole('checkbox', { name: /Erin Invitee/ }).waitFor();
      const member = (await (
        await fetch(`${app.apiOrigin}/api/teams`, { headers: { authorization: `Bearer ${admin.accessToken}` } })
      ).json()) as { members: { shareWithId: string; isAdmin: boolean }[] };
      const memberId = member.members.find((x) => !x.isAdmin)!.shareWithId;
      const shared = await sendFiles(app, admin, new Map([['team-budget.xlsx', Buffer.alloc(1500, 9)]]), {
        shareWith: [memberId],
      });
      await m.page.goto(`${web.url}/dash/transfers?filter=shared`);
      await m.page
        .getByTestId('transfer-row')
        .filter({ hasText: 'team-budget.xlsx' })
        .filter({ hasText: `shared by ${admin.email}` })
        .click();
      await m.page.getByTestId('transfer-shared-note').waitFor();
      expect(await m.page.getByTestId('action-delete').count()).toBe(0);
      expect(new URL(m.page.url()).pathname).toBe(`/dash/transfers/${shared.id}`);

      // removing the member asks inline: focus moves to Keep, Keep returns it to the member's Remove; then Remove removes
      await a.page.goto(`${web.url}/dash/account/teams`);
      const removeErin = a.page.getByRole('button', { name: 'Remove Erin Invitee' });
      await removeErin.click();
      const confirm = a.page.getByTestId('teams-remove-confirm');
      await confirm.getByText('Remove Erin Invitee from your team?', { exact: false }).waitFor();
      await expect.poll(() => a.page.evaluate(() => document.activeElement?.textContent)).toBe('Keep');
      await expectAccessible(a.page);
      await confirm.getByRole('button', { name: 'Keep' }).click();
      await expect
        .poll(() => a.page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
        .toBe('Remove Erin Invitee');
      await removeErin.click();
      await confirm.getByRole('button', { name: 'Remove', exact: true }).click();
      await a.page
        .getByTestId('teams-notice')
        .getByText('Erin Invitee was removed. Their transfers are now yours.')
        .waitFor();
      await a.page.getByTestId('teams-seats').getByText('0 of 5 seats used').waitFor();
    } finally {
      await closePage(memberContext);
      await closePage(adminContext);
    }
  });
});
