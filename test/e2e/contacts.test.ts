import { readFile } from 'node:fs/promises';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { BuiltAppServer } from '../../frontend/app-server';
import type { LocalApp } from '../../scripts/local/app';
import { closePage, logIn as logInAt, openPage, startBrowserStack, stopBrowserStack } from '../helpers/browser-stack';
import { api } from '../helpers/local-app';
import { bearer, createUser, sendFiles, type TestUser } from '../helpers/transfers';

/**
 * The contacts screen in Chromium on the built app under its CSP: a past send's
 * recipient is listed; a contact is added (its duplicate in another case refused), found by the
 * search, edited in the dialog and removed after the confirmation; a CSV file is imported
 * through the file chooser (its row without an email skipped, the counts shown) and the export
 * downloads contacts.csv; the quick send on /dash suggests a contact in the recipient box.
 */
let app: LocalApp;
let web: BuiltAppServer;
let browser: Browser;
let owner: TestUser;
let context: BrowserContext;
let page: Page;

const rows = () => page.getByTestId('contact-row');
const rowOf = (email: string) => page.locator(`[data-testid="contact-row"][data-contact-row="${email.toLowerCase()}"]`);

beforeAll(async () => {
  ({ app, web, browser } = await startBrowserStack());
  owner = await createUser(app, 'contacts.owner@example.com', 'pro');
  await sendFiles(app, owner, new Map([['plan.pdf', Buffer.alloc(2048, 5)]]), {
    sendAs: 'email',
    emailTo: [{ email: 'past.recipient@example.com', name: 'Pat Past', company: 'PastCo' }],
  });
}, 300_000);

afterAll(() => stopBrowserStack({ app, web, browser }));
beforeEach(async () => {
  ({ context, page } = await openPage(browser));
});
afterEach(() => closePage(context));

describe('contacts screen', () => {
  it('lists past recipients; adds, searches, edits and removes a contact', async () => {
    await logInAt(page, web.url, owner.email);
    await page.getByTestId('dash-tab-contacts').click();
    await page.waitForURL((u) => u.pathname === '/dash/contacts');
    await page.getByRole('heading', { level: 1, name: 'Contacts' }).waitFor();
    await rowOf('past.recipient@example.com').waitFor();
    expect(await rowOf('past.recipient@example.com').textContent()).toContain('Pat Past');
    expect(await rowOf('past.recipient@example.com').textContent()).toContain('PastCo');

    // Add, with the address as typed.
    await page.getByTestId('contact-add-email').fill('Maria.Lopez@Acme.com');
    await page.getByTestId('contact-add-name').fill('Maria Lopez');
    await page.getByTestId('contact-add-company').fill('Acme');
    await page.getByTestId('contact-add-submit').click();
    await page.getByTestId('contacts-notice').getByText('Maria.Lopez@Acme.com was added to your contacts.').waitFor();
    await rowOf('maria.lopez@acme.com').waitFor();
    expect(await rowOf('maria.lopez@acme.com').locator('td').first().textContent()).toBe('Maria.Lopez@Acme.com');
    expect(await page.getByTestId('contact-add-email').inputValue()).toBe('');

    // The same address in another case is refused; an invalid one too, before any request.
    await page.getByTestId('contact-add-email').fill('MARIA.LOPEZ@acme.com');
    await page.getByTestId('contact-add-submit').click();
    await page
      .getByTestId('contact-add-problem')
      .getByText('This email address is already one of your contacts.')
      .waitFor();
    await page.getByTestId('contact-add-email').fill('not an address');
    await page.getByTestId('contact-add-submit').click();
    await page.getByTestId('contact-add-problem').getByText('Enter a valid email address').waitFor();
    expect(await page.getByTestId('contact-add-email').getAttribute('aria-invalid')).toBe('true');
    expect(await rows().count()).toBe(2);

    // Search by company, then a search without matches and its way back.
    await page.getByTestId('contacts-search').fill('ACME');
    await rowOf('past.recipient@example.com').waitFor({ state: 'detached' });
    expect(await rows().count()).toBe(1);
    await page.getByTestId('contacts-search').fill('nobody-like-this');
    await page.getByTestId('contacts-empty').getByText('No contacts match “nobody-like-this”.').waitFor();
    await page.getByTestId('contacts-empty').getByRole('button', { name: 'Clear search' }).click();
    await rowOf('past.recipient@example.com').waitFor();

    // Edit in the dialog: name changed, company cleared; the focus comes back to the row.
    await page.getByRole('button', { name: 'Edit Maria.Lopez@Acme.com' }).click();
    const editDialog = page.getByRole('dialog', { name: 'Edit contact' });
    await editDialog.waitFor();
    expect(await editDialog.getByTestId('contact-edit-name').inputValue()).toBe('Maria Lopez');
    await editDialog.getByTestId('contact-edit-name').fill('Maria López-García');
    await editDialog.getByTestId('contact-edit-company').fill('');
    await editDialog.getByTestId('contact-edit-save').click();
    await editDialog.waitFor({ state: 'detached' });
    await page.getByTestId('contacts-notice').getByText('Maria.Lopez@Acme.com was saved.').waitFor();
    await expect.poll(() => rowOf('maria.lopez@acme.com').textContent()).toContain('Maria López-García');
    expect(await rowOf('maria.lopez@acme.com').textContent()).not.toContain('Acme,');
    await expect
      .poll(() =>
        page.evaluate(() => document.activeElement?.closest('[data-contact-row]')?.getAttribute('data-contact-row')),
      )
      .toBe('maria.lopez@acme.com');

    // Remove after the confirmation; Cancel first keeps it.
    await page.getByRole('button', { name: 'Remove past.recipient@example.com' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Remove this contact?' });
    await confirm.getByTestId('contact-remove-cancel').click();
    await confirm.waitFor({ state: 'detached' });
    expect(await rowOf('past.recipient@example.com').count()).toBe(1);
    await page.getByRole('button', { name: 'Remove past.recipient@example.com' }).click();
    expect(await confirm.textContent()).toContain('past.recipient@example.com will no longer be suggested');
    await confirm.getByTestId('contact-remove-confirm').click();
    await page
      .getByTestId('contacts-notice')
      .getByText('past.recipient@example.com was removed from your contacts.')
      .waitFor();
    await rowOf('past.recipient@example.com').waitFor({ state: 'detached' });
    const listed = await api(app, '/contacts', { headers: bearer(owner) });
    expect(listed.json.contacts.map((c: { email: string }) => c.email)).toEqual(['Maria.Lopez@Acme.com']);
  });

  it('imports a CSV file and exports contacts.csv', async () => {
    const user = await createUser(app, 'contacts.csv@example.com', 'pro');
    await logInAt(page, web.url, user.email);
    await page.goto(`${web.url}/dash/contacts`);
    await page.getByTestId('contacts-empty').getByText('No contacts yet.').waitFor();

    const csv =
      'Name,Company,E-mail Address\r\nAda Lovelace,Engines,ada@engines.io\r\nNo Address,Nowhere,\r\n"Lopez, Maria",Acme,maria@acme.com\r\nTypo,X,not-an-address\r\n';
    await page
      .getByTestId('contacts-import-input')
      .setInputFiles({ name: 'people.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const result = page.getByTestId('contacts-import-result');
    await result.waitFor();
    expect(await result.getByTestId('import-added').textContent()).toBe('Added: 2');
    expect(await result.getByTestId('import-skipped').textContent()).toBe('Skipped, no email: 1');
    expect(await result.getByTestId('import-invalid').textContent()).toBe('Invalid email: 1');
    await rowOf('ada@engines.io').waitFor();
    expect(await rowOf('maria@acme.com').textContent()).toContain('Lopez, Maria');

    // A file the server refuses says why.
    await page
      .getByTestId('contacts-import-input')
      .setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from('name,company\nAda,Engines\n') });
    await page
      .getByTestId('contacts-notice')
      .getByText('No email column was found. Name a column “email” in the first row.')
      .waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('contacts-export').click()]);
    expect(download.suggestedFilename()).toBe('contacts.csv');
    const text = await readFile((await download.path())!, 'utf8');
    expect(text.replace(/^\uFEFF/u, '').split('\r\n')).toEqual([
      'email,name,company',
      'ada@engines.io,Ada Lovelace,Engines',
      'maria@acme.com,"Lopez, Maria",Acme',
      '',
    ]);
  });

  it('the quick send on /dash suggests contacts in the recipient box', async () => {
    await logInAt(page, web.url, owner.email);
    const input = page.getByTestId('recipients-input');
    await input.waitFor();
    expect(await input.getAttribute('role')).toBe('combobox');
    await input.pressSequentially('lop');
    const suggestion = page.getByTestId('recipient-suggestion').filter({ hasText: 'Maria.Lopez@Acme.com' });
    await suggestion.waitFor();
    expect(await suggestion.textContent()).toContain('Maria López-García');
    expect(await input.getAttribute('aria-expanded')).toBe('true');
    // the keyboard picks it: arrow down, Enter
    await input.press('ArrowDown');
    await input.press('Enter');
    await page
      .locator('.qs-chip')
      .filter({ hasText: /maria\.lopez@acme\.com/i })
      .waitFor();
    expect(await input.inputValue()).toBe('');
  });
});
