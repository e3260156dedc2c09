import { LambdaClient } from '@aws-sdk/client-lambda';
import { config } from './env';

/** The Lambda client, for async job starts (locally the gateway's Invoke emulation); see clients.ts. */
let lambdaClient: LambdaClient | undefined;

export function lambda(): LambdaClient {
  if (!lambdaClient) {
    const c = config();
    lambdaClient = new LambdaClient({ region: c.awsRegion, endpoint: c.endpoints.lambda, maxAttempts: 3 });
  }
  return lambdaClient;
}
