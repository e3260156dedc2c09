import { SESv2Client } from '@aws-sdk/client-sesv2';
import { config } from './env';

/** The SES client; see clients.ts. */
let ses: SESv2Client | undefined;

export function sesv2(): SESv2Client {
  if (!ses) {
    const c = config();
    ses = new SESv2Client({ region: c.awsRegion, endpoint: c.endpoints.ses, maxAttempts: 3 });
  }
  return ses;
}
