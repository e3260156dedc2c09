import { GetAccountCommand } from '@aws-sdk/client-sesv2';
import { sesv2 } from '../lib/clients';

/** Asks SES for the account's sending status: proves reachability and credentials, sends nothing. */
export async function checkMailReachable(): Promise<{ sendingEnabled: boolean }> {
  const account = await sesv2().send(new GetAccountCommand({}));
  return { sendingEnabled: account.SendingEnabled === true };
}
