import { describe, expect, it } from 'vitest';
import {
  grantIdOf,
  liveHolds,
  mayReserve,
  servedRequestOf,
  servedWhole,
  taggedDisposition,
  usedUp,
} from '../../../functions/domain/delivery-events';
import { attachmentDisposition } from '../../../functions/adapters/storage';
import { cloudTrailEvent } from '../../../scripts/local/s3rver-cloudtrail';

const ID = '01928f3e-7b1c-7def-8a00-0123456789ab';

/** A GetObject data event as CloudTrail puts it on EventBridge for a presigned GET (the shape AWS documents). */
function awsEvent(overrides: Record<string, unknown> = {}, params: Record<string, unknown> = {}) {
  return {
    version: '0',
    id: 'e1',
    'detail-type': 'AWS API Call via CloudTrail',
    source: 'aws.s3',
    detail: {
      eventSource: 's3.amazonaws.com',
      eventName: 'GetObject',
      eventTime: '2026-11-28T16:00:00Z',
      sourceIPAddress: '198.51.100.7',
      requestParameters: {
        bucketName: 'sb-transfers',
        Host: 'sb-transfers.s3.eu-west-1.amazonaws.com',
        key: 't/AbC123/f1',
        'X-Amz-Expires': '900',
        'response-content-disposition': taggedDisposition(attachmentDisposition('report.pdf'), ID),
        ...params,
      },
      additionalEventData: { AuthenticationMethod: 'QueryString', bytesTransferredOut: 1234 },
      eventID: 'ev-1',
      ...overrides,
    },
  };
}

describe('the grant id a download URL carries', () => {
  it('rides in the attachment disposition and is read back from it', () => {
    const d = taggedDisposition(attachmentDisposition('naïve "x".pdf'), ID);
    expect(d.startsWith('attachment; filename=')).toBe(true);
    expect(grantIdOf(d)).toBe(ID);
  });

  it('is absent from a disposition without one, or with a malformed one', () => {
    expect(grantIdOf(attachmentDisposition('a.pdf'))).toBeUndefined();
    expect(grantIdOf('attachment; sb-delivery=not-a-uuid')).toBeUndefined();
    expect(grantIdOf(undefined)).toBeUndefined();
    expect(grantIdOf(42)).toBeUndefined();
  });
});

describe('servedRequestOf', () => {
  it('reads the grant, object, bytes, time and event id of a GetObject data event', () => {
    expect(servedRequestOf(awsEvent())).toEqual({
      eventId: 'ev-1',
      deliveryId: ID,
      bucket: 'sb-transfers',
      key: 't/AbC123/f1',
      bytes: 1234,
      at: Date.parse('2026-11-28T16:00:00Z'),
      sourceIp: '198.51.100.7',
    });
  });

  it('ignores other calls, failed calls, GETs without a grant and malformed events', () => {
    expect(servedRequestOf(awsEvent({ eventName: 'HeadObject' }))).toBeUndefined();
    expect(servedRequestOf(awsEvent({ errorCode: 'AccessDenied' }))).toBeUndefined();
    expect(servedRequestOf(awsEvent({}, { 'response-content-disposition': 'attachment' }))).toBeUndefined();
    expect(servedRequestOf(awsEvent({ additionalEventData: { bytesTransferredOut: -1 } }))).toBeUndefined();
    expect(servedRequestOf(awsEvent({ eventTime: 'yesterday' }))).toBeUndefined();
    expect(servedRequestOf({ ...awsEvent(), 'detail-type': 'Object Created' })).toBeUndefined();
    expect(servedRequestOf(null)).toBeUndefined();
    expect(servedRequestOf('GetObject')).toBeUndefined();
  });

  it('reads the event the local s3rver makes as the one CloudTrail makes', () => {
    const query = new URLSearchParams({
      'X-Amz-Algorithm': 'AWS4-HMAC-SHA256',
      'X-Amz-Credential': 'S3RVER/20261128/us-east-1/s3/aws4_request',
      'X-Amz-Expires': '900',
      'X-Amz-Signature': 'abc',
      'response-content-disposition': taggedDisposition('attachment', ID),
    });
    const event = cloudTrailEvent({
      bucket: 'b',
      key: 'z/AbC123/h.zip',
      host: '127.0.0.1:4569',
      query,
      status: 206,
      bytes: 77,
      sourceIp: '127.0.0.1',
      userAgent: 'curl/8',
      at: new Date('2026-11-28T16:00:00.123Z'),
    });
    const detail = event.detail as {
      requestParameters: Record<string, string>;
      additionalEventData: Record<string, unknown>;
    };
    // what CloudTrail leaves out of the record of a presigned request
    expect(detail.requestParameters['X-Amz-Signature']).toBeUndefined();
    expect(detail.requestParameters['X-Amz-Credential']).toBeUndefined();
    expect(detail.requestParameters['X-Amz-Expires']).toBe('900');
    expect(detail.additionalEventData.AuthenticationMethod).toBe('QueryString');
    expect(servedRequestOf(event)).toMatchObject({ deliveryId: ID, bucket: 'b', key: 'z/AbC123/h.zip', bytes: 77 });
  });
});

describe('completion and limits', () => {
  it('completes a grant once the bytes served reach the object size (ranged requests add up)', () => {
    expect(servedWhole(0, 0)).toBe(true);
    expect(servedWhole(499, 500)).toBe(false);
    expect(servedWhole(250 + 250, 500)).toBe(true);
    expect(servedWhole(600, 500)).toBe(true);
  });

  it('counts live reservations and completions against the limit; lapsed reservations free their slot', () => {
    const now = 1_000;
    const held = { a: now + 1, b: now - 1, c: now };
    expect(liveHolds(held, now)).toEqual({ live: ['a'], lapsed: ['b', 'c'] });
    expect(mayReserve({ limit: 3, completed: 1, held }, now)).toBe(true);
    expect(mayReserve({ limit: 2, completed: 1, held }, now)).toBe(false);
    expect(mayReserve({ limit: 1, completed: 0, held: {} }, now)).toBe(true);
    expect(usedUp({ limit: 2, completed: 1 })).toBe(false);
    expect(usedUp({ limit: 2, completed: 2 })).toBe(true);
  });
});
