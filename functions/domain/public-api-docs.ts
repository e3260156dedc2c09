/**
 * The words of the public API v1's OpenAPI operations (docs/api.md): summary, description, tag
 * and an example answer per `auth: 'key'` route, with the request schemas of public-api.ts.
 * Apart from those schemas so the functions' bundles leave them out: only the OpenAPI document
 * (domain/openapi.ts) reads them.
 */
import type * as z from 'zod/mini';
import {
  v1CreateRequestSchema,
  v1CreateTransferSchema,
  v1FileParams,
  v1ListTransfersQuery,
  v1CompleteFileSchema,
  v1RecordPartSchema,
  v1SignSchema,
  v1TransferParams,
} from './public-api';
import {
  EVENT_TYPES,
  createWebhookSchema,
  deliveryParamsSchema,
  rotateWebhookSchema,
  updateWebhookSchema,
  webhookIdParamsSchema,
} from './webhooks-api';

export interface V1Operation {
  readonly summary: string;
  readonly description: string;
  readonly tag: 'Transfers' | 'Uploads' | 'Requests' | 'Webhooks';
  readonly body?: z.ZodMiniType;
  readonly query?: z.ZodMiniType;
  readonly params?: z.ZodMiniType;
  /** the success status and an example of its body */
  readonly status: 200 | 201 | 202;
  readonly example: unknown;
  /** another success answer (a 202 still working, with Retry-After: ask again) */
  readonly pending?: { readonly status: 202; readonly description: string; readonly example: unknown };
}

const EXAMPLE_ID = 'a7Kx9Qp';
const EXAMPLE_FILE = 'Pq3Rs8Tu1V';
const EXAMPLE_ENDPOINT = {
  id: 'we_a2b3c4d5e6f7g2h3i4j5',
  url: 'https://hooks.example.com/sendbridge',
  description: 'Build server',
  events: ['transfer.downloaded', 'transfer.expired'],
  enabled: true,
  createdAt: 1767225600000,
  secretHint: 'whsec_6f1c…',
};
const EXAMPLE_DELIVERY = {
  id: 'wd_a2b3c4d5e6f7g2h3i4j5',
  eventId: 'evt_019b7a5e-4c00-7a3d-9f21-6b8c2d4e1a07',
  eventType: 'transfer.downloaded',
  status: 'delivered',
  createdAt: 1767225600000,
  attempts: [{ at: 1767225600200, status: 200, durationMs: 48 }],
};

/** Route key (`METHOD /path` relative to /api) -> operation. */
export const V1_OPERATIONS: Readonly<Record<string, V1Operation>> = {
  'POST /v1/transfers': {
    summary: 'Create a transfer',
    description:
      'Starts an email or link send and answers with its upload plan: a presigned PUT per file under 50 MB, otherwise a multipart upload (partSize, partCount) whose parts you sign, upload and record. Your plan limits apply.',
    tag: 'Transfers',
    body: v1CreateTransferSchema,
    status: 201,
    example: {
      id: EXAMPLE_ID,
      region: 'hongkong',
      sendAs: 'link',
      link: 'https://sendbridge.example/w/a7Kx9Qp',
      expiryDate: 1767225600000,
      files: [
        {
          fileId: EXAMPLE_FILE,
          fileName: 'video.mov',
          size: 73400320,
          mode: 'multipart',
          partSize: 8388608,
          partCount: 9,
        },
      ],
    },
  },
  'POST /v1/transfers/{id}/sign': {
    summary: 'Sign upload URLs',
    description:
      'Fresh presigned URLs for a file (single PUT) or for up to 100 of its parts (multipart, partNumbers); or, with fileIds, PUT URLs for up to 100 single files at once (answer: files with fileId and url): the create answer carries URLs for its first 100 single files only.',
    tag: 'Uploads',
    params: v1TransferParams,
    body: v1SignSchema,
    status: 200,
    example: { fileId: EXAMPLE_FILE, parts: [{ partNumber: 1, url: 'https://…' }], expiresAt: 1767225600000 },
  },
  'POST /v1/transfers/{id}/parts': {
    summary: 'Record an uploaded part',
    description:
      "Records a part's number, ETag and size once its PUT succeeded, so the upload can resume and complete. Optionally the CRC-32 of the part's bytes (`crc32`, unsigned 32-bit): when every part of a file has one, the file's CRC-32 is recorded at completion.",
    tag: 'Uploads',
    params: v1TransferParams,
    body: v1RecordPartSchema,
    status: 200,
    example: { recorded: true },
  },
  'GET /v1/transfers/{id}/upload-state': {
    summary: 'Upload state',
    description:
      'Which files are uploaded and which parts are recorded: what a client resuming an upload still has to send.',
    tag: 'Uploads',
    params: v1TransferParams,
    status: 200,
    example: {
      status: 'uploading',
      state: 'uploading',
      files: [
        {
          fileId: EXAMPLE_FILE,
          fileName: 'video.mov',
          size: 73400320,
          mode: 'multipart',
          uploaded: false,
          state: 'pending',
          partSize: 8388608,
          partCount: 9,
          partsDone: [1, 2],
        },
      ],
    },
  },
  'POST /v1/transfers/{id}/files/{fileId}/complete': {
    summary: 'Complete a file',
    description:
      "Completes a file's multipart upload from the recorded parts (or checks a single PUT) and its size. Files over 100 MiB are put together in the background: 202 `completing` with Retry-After; call it again (it is idempotent) until 200 `complete`. The body is optional; for a single PUT it may carry the CRC-32 of the file's bytes (`crc32`).",
    tag: 'Uploads',
    params: v1FileParams,
    body: v1CompleteFileSchema,
    status: 200,
    example: { fileId: EXAMPLE_FILE, size: 73400320, state: 'complete' },
    pending: {
      status: 202,
      description: 'Still being put together: ask again after Retry-After seconds',
      example: { fileId: EXAMPLE_FILE, size: 4402341478, state: 'completing', retryAfterSeconds: 7 },
    },
  },
  'POST /v1/transfers/{id}/complete': {
    summary: 'Complete a transfer',
    description:
      'Every file is in: the transfer goes live and, for an email send, its recipients are mailed. While large files are still put together it answers 202 `completing` with Retry-After, and the transfer is sent as soon as they are; calling it again is always safe and changes nothing.',
    tag: 'Uploads',
    params: v1TransferParams,
    status: 200,
    example: {
      id: EXAMPLE_ID,
      state: 'complete',
      link: 'https://sendbridge.example/w/a7Kx9Qp',
      expiryDate: 1767830400000,
      recipients: [],
    },
    pending: {
      status: 202,
      description: 'Files are still being put together: ask again after Retry-After seconds',
      example: { id: EXAMPLE_ID, state: 'completing', completing: [EXAMPLE_FILE], retryAfterSeconds: 7 },
    },
  },
  'GET /v1/transfers': {
    summary: 'List transfers',
    description: 'A page of 20 of your transfers, newest first, with the counts per filter.',
    tag: 'Transfers',
    query: v1ListTransfersQuery,
    status: 200,
    example: { transfers: [{ slug: EXAMPLE_ID, fileName: 'video.mov', totalDownloads: 2 }], total: 1 },
  },
  'GET /v1/transfers/{id}': {
    summary: 'Read a transfer',
    description: 'One of your transfers with its files, recipients and downloads (date, country, recipient).',
    tag: 'Transfers',
    params: v1TransferParams,
    status: 200,
    example: {
      slug: EXAMPLE_ID,
      link: 'https://sendbridge.example/w/a7Kx9Qp',
      files: [{ fileName: 'video.mov', size: 73400320 }],
      downloads: [{ at: 1767139200000, country: 'DE' }],
    },
  },
  'DELETE /v1/transfers/{id}': {
    summary: 'Delete a transfer',
    description: 'Deletes the files; the link then answers 404.',
    tag: 'Transfers',
    params: v1TransferParams,
    status: 200,
    example: { deleted: true },
  },
  'POST /v1/requests': {
    summary: 'Create a file request',
    description: 'A page where others upload files to you; its rules must fit your plan.',
    tag: 'Requests',
    body: v1CreateRequestSchema,
    status: 201,
    example: {
      id: 'Rq8Zt2Lm',
      title: 'Scans for the contract',
      link: 'https://sendbridge.example/r/Rq8Zt2Lm',
      state: 'open',
    },
  },
  'GET /v1/requests': {
    summary: 'List file requests',
    description: 'Your file requests with their upload counts.',
    tag: 'Requests',
    status: 200,
    example: { requests: [{ id: 'Rq8Zt2Lm', title: 'Scans for the contract', state: 'open', uploadCount: 1 }] },
  },
  'GET /v1/webhooks': {
    summary: 'List webhook endpoints',
    description: 'Your webhook endpoints (never their secrets) and how many you may have.',
    tag: 'Webhooks',
    status: 200,
    example: { endpoints: [EXAMPLE_ENDPOINT], max: 10, localMode: false },
  },
  'POST /v1/webhooks': {
    summary: 'Register a webhook endpoint',
    description: `An HTTPS URL that receives the events you choose (${EVENT_TYPES.join(', ')}), each delivery signed as Standard Webhooks specify (\`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature: v1,<base64 HMAC-SHA256>\`) with the endpoint's \`whsec_\` secret. The secret is in this answer only: store it.`,
    tag: 'Webhooks',
    body: createWebhookSchema,
    status: 201,
    example: { endpoint: EXAMPLE_ENDPOINT, secret: 'whsec_6f1c0e2b9a4d7f3e8b5a1c9d2e7f4a6b' },
  },
  'PATCH /v1/webhooks/{id}': {
    summary: 'Change a webhook endpoint',
    description: 'Its URL, events, description, or whether it is enabled.',
    tag: 'Webhooks',
    params: webhookIdParamsSchema,
    body: updateWebhookSchema,
    status: 200,
    example: { endpoint: { ...EXAMPLE_ENDPOINT, enabled: false } },
  },
  'DELETE /v1/webhooks/{id}': {
    summary: 'Remove a webhook endpoint',
    description: 'No more deliveries go to it.',
    tag: 'Webhooks',
    params: webhookIdParamsSchema,
    status: 200,
    example: { removed: true },
  },
  'POST /v1/webhooks/{id}/rotate': {
    summary: "Rotate an endpoint's secret",
    description:
      'A new secret, in this answer only. The previous one keeps signing too (a second `v1=` signature) for `graceHours` (default 24, at most 168), so your receiver can switch without losing a delivery.',
    tag: 'Webhooks',
    params: webhookIdParamsSchema,
    body: rotateWebhookSchema,
    status: 200,
    example: {
      endpoint: { ...EXAMPLE_ENDPOINT, previousSecretExpiresAt: 1767312000000 },
      secret: 'whsec_0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d',
    },
  },
  'GET /v1/webhooks/{id}/deliveries': {
    summary: 'List deliveries',
    description:
      "The endpoint's newest 50 deliveries with each attempt's response code. A failed delivery is retried with backoff for 24 h.",
    tag: 'Webhooks',
    params: webhookIdParamsSchema,
    status: 200,
    example: { deliveries: [EXAMPLE_DELIVERY] },
  },
  'POST /v1/webhooks/{id}/deliveries/{deliveryId}/redeliver': {
    summary: 'Redeliver an event',
    description: 'Sends the same event again now, with the same event id (receivers de-duplicate on it).',
    tag: 'Webhooks',
    params: deliveryParamsSchema,
    status: 202,
    example: {
      delivery: {
        ...EXAMPLE_DELIVERY,
        id: 'wd_b3c4d5e6f7g2h3i4j5k6',
        status: 'pending',
        attempts: [],
        redeliveryOf: EXAMPLE_DELIVERY.id,
      },
    },
  },
  'POST /v1/webhooks/{id}/test': {
    summary: 'Send a test event',
    description: 'A `ping` event to this endpoint, logged like any delivery.',
    tag: 'Webhooks',
    params: webhookIdParamsSchema,
    status: 202,
    example: { delivery: { ...EXAMPLE_DELIVERY, eventType: 'ping', status: 'pending', attempts: [] } },
  },
};
