/**
 * EventBridge PutEvents and SQS SendMessageBatch (both AWS JSON protocols, issue 17): what
 * publishing a product event needs in AWS. Locally neither is configured (no emulator runs):
 * services/events.ts then starts the delivery job through the local Lambda Invoke API instead.
 */
import { jsonRpc, serviceEndpoint } from './core';

export interface BusEntry {
  readonly source: string;
  readonly detailType: string;
  readonly detail: string;
  readonly busName: string;
  readonly time?: Date;
}

export function createEventBridge(opts: { region: string; endpoint?: string | undefined }) {
  const target = { service: 'events', region: opts.region, endpoint: serviceEndpoint('events', opts.region, opts.endpoint), targetPrefix: 'AWSEvents', jsonVersion: '1.1' } as const;
  return {
    /** Throws when any entry failed (FailedEntryCount > 0). */
    async putEvents(entries: readonly BusEntry[]): Promise<void> {
      const out = await jsonRpc<{ FailedEntryCount?: number; Entries?: { ErrorCode?: string; ErrorMessage?: string }[] }>(target, 'PutEvents', {
        Entries: entries.map((e) => ({ Source: e.source, DetailType: e.detailType, Detail: e.detail, EventBusName: e.busName, ...(e.time ? { Time: Math.floor(e.time.getTime() / 1000) } : {}) })),
      });
      if (out.FailedEntryCount) {
        const first = out.Entries?.find((e) => e.ErrorCode);
        throw new Error(`PutEvents: ${out.FailedEntryCount} failed (${first?.ErrorCode ?? ''} ${first?.ErrorMessage ?? ''})`.trim());
      }
    },
  };
}

export function createSqs(opts: { region: string; endpoint?: string | undefined }) {
  const target = { service: 'sqs', region: opts.region, endpoint: serviceEndpoint('sqs', opts.region, opts.endpoint), targetPrefix: 'AmazonSQS', jsonVersion: '1.0' } as const;
  return {
    /** Up to 10 messages; throws when any failed. */
    async sendBatch(queueUrl: string, messages: readonly { id: string; body: string; delaySeconds?: number }[]): Promise<void> {
      const out = await jsonRpc<{ Failed?: { Id: string; Code?: string; Message?: string }[] }>(target, 'SendMessageBatch', {
        QueueUrl: queueUrl,
        Entries: messages.map((m) => ({ Id: m.id, MessageBody: m.body, ...(m.delaySeconds ? { DelaySeconds: Math.min(900, Math.max(0, Math.floor(m.delaySeconds))) } : {}) })),
      });
      if (out.Failed?.length) throw new Error(`SendMessageBatch: ${out.Failed.length} failed (${out.Failed[0]!.Code ?? ''})`);
    },
  };
}
