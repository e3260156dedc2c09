/**
 * Lambda through the AWS SDK v3, one LambdaClient per process, created on first use: an
 * asynchronous Invoke starts a job. The endpoint comes from configuration (locally the gateway
 * emulates the Invoke API), unset in AWS. Imported on demand (adapters/jobs.ts,
 * services/events.ts): few routes start a job.
 */
import { LambdaClient } from '@aws-sdk/client-lambda';
import { config } from '../env';
import { REQUEST_HANDLER } from './timeouts';

export { InvokeCommand } from '@aws-sdk/client-lambda';

let client: LambdaClient | undefined;

export function lambda(): LambdaClient {
  if (!client) {
    const c = config();
    client = new LambdaClient({
      region: c.awsRegion,
      requestHandler: REQUEST_HANDLER,
      ...(c.endpoints.lambda ? { endpoint: c.endpoints.lambda } : {}),
    });
  }
  return client;
}
