import type { Page } from 'playwright-core';
import type { LocalApp } from '../../scripts/local/app';
import { waitForMail } from './transfers';

/**
 * Fills the guest's sender and recipient, submits, types the code mailed to the sender into
 * the verification step, and waits for the done view, as a guest does on the home page.
 */
export async function guestSendInBrowser(
  page: Page,
  app: LocalApp,
  v: { sender: string; recipient: string; message?: string; timeoutMs?: number },
): Promise<void> {
  await page.getByTestId('sender-email').fill(v.sender);
  await page.getByTestId('recipients-input').fill(v.recipient);
  await page.getByTestId('recipients-input').press('Enter');
  if (v.message) await page.getByTestId('message').fill(v.message);
  await page.getByTestId('send-submit').click();

  const codeMail = await waitForMail(app, v.sender, /\b\d{5}\b/);
  const code = /\b(\d{5})\b/.exec(codeMail.body.text)![1]!;
  await page.getByTestId('code-input').fill(code);
  await page.getByTestId('verify-button').click();
  await page.getByText("You're all done!").waitFor({ timeout: v.timeoutMs ?? 90_000 });
}
