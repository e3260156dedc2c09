/**
 * EventBridge and SQS through the AWS SDK v3, one client each per process, created on first
 * use: publishing a product event in AWS (services/events.ts, which imports this on demand).
 * Locally neither is configured (no emulator runs), and the delivery job is started through the
 * local Lambda Invoke API instead.
 */
import { EventBridgeClient } from '@aws-sdk/client-eventbridge';
import { SQSClient } from '@aws-sdk/client-sqs';
import { config } from '../env';
import { REQUEST_HANDLER } from './timeouts';

export { PutEventsCommand } from '@aws-sdk/client-eventbridge';
export { SendMessageBatchCommand } from '@aws-sdk/client-sqs';

let bus: EventBridgeClient | undefined;
let queue: SQSClient | undefined;

export function eventBridge(): EventBridgeClient {
  bus ??= new EventBridgeClient({ region: config().awsRegion, requestHandler: REQUEST_HANDLER });
  return bus;
}

export function sqs(): SQSClient {
  queue ??= new SQSClient({ region: config().awsRegion, requestHandler: REQUEST_HANDLER });
  return queue;
}
