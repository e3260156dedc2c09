/**
 * SES v2 through the AWS SDK v3 (@aws-sdk/client-sesv2: docs/decisions/, "The AWS SDK v3 in
 * functions/"), one SESv2Client per process, created on first use; the endpoint comes from
 * configuration (aws-ses-v2-local locally), unset in AWS. Imported on demand by the mail and
 * sender-domain adapters, with the commands they send, so functions that never mail do not load it.
 */
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { config } from '../env';
import { REQUEST_HANDLER } from './timeouts';

export {
  CreateEmailIdentityCommand,
  DeleteEmailIdentityCommand,
  GetAccountCommand,
  GetEmailIdentityCommand,
  SendEmailCommand,
} from '@aws-sdk/client-sesv2';

let client: SESv2Client | undefined;

export function sesv2(): SESv2Client {
  if (!client) {
    const c = config();
    client = new SESv2Client({
      region: c.awsRegion,
      requestHandler: REQUEST_HANDLER,
      ...(c.endpoints.ses ? { endpoint: c.endpoints.ses } : {}),
    });
  }
  return client;
}
