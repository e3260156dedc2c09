/**
 * A link that works while the upload runs (docs/decisions/0074): the time-left estimate and the
 * page's polling, and the services with the table's and SES's clients mocked: who may read a
 * transfer still uploading, what its view shows (complete files only, the rest counted), "Mail me
 * when it's complete" (gate, 409 once complete, rate limits, one entry per address), the ZIP
 * refused while uploading, the recipients not mailed twice, and who is told of a withdrawal.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { conditionFailed, ddbMock, useUnitEnv } from '../../helpers/aws-mock';
import { keys } from '../../../functions/data/keys';
import { hashToken } from '../../../functions/lib/secrets';
import { HttpError } from '../../../functions/lib/errors';
import {
  RATE_WINDOW_MS,
  STALLED_AFTER_MS,
  WATCH_PER_IP,
  estimateSecondsLeft,
  livePollDelayMs,
} from '../../../functions/domain/live-upload';
import { downloadView, fileDownload, watchTransfer, zipDownload } from '../../../functions/services/downloads';
import { completeTransfer } from '../../../functions/services/transfers';
import { livesFromStart, mailWithdrawn } from '../../../functions/services/live-transfers';
import type { TransferRecord } from '../../../functions/data/transfers';

useUnitEnv({ MALWARE_SCANNER: 'guardduty' });
const ses = mockClient(SESv2Client);

const now = Date.UTC(2026, 10, 28, 12, 0, 0);
const SLUG = 'Live001';
const MiB = 1024 * 1024;
const viewer = { sourceIp: '203.0.113.7' };

const transfer = (extra: Record<string, unknown> = {}): TransferRecord & Record<string, unknown> => ({
  ...keys.transfer(SLUG),
  entity: 'Transfer',
  slug: SLUG,
  status: 'uploading',
  region: 'hongkong',
  anon: true,
  sendAs: 'link',
  senderEmail: 'sender@example.com',
  message: '',
  lang: 'en',
  recipients: [],
  shareWith: [],
  uploadTokenHash: hashToken('u'.repeat(43)),
  uploadTokenExpiresAt: now + 86_400_000,
  fileCount: 3,
  totalBytes: 30 * MiB,
  createdAt: now - 120_000,
  expirySeconds: 604_800,
  expiryDate: now + 604_800_000,
  totalDownloads: 0,
  liveAt: now - 120_000,
  ...extra,
});

const file = (fileId: string, extra: Record<string, unknown> = {}) => ({
  ...keys.transferFile(SLUG, fileId),
  slug: SLUG,
  fileId,
  fileName: `${fileId}.bin`,
  key: `t/${SLUG}/${fileId}`,
  size: 10 * MiB,
  mode: 'multipart',
  uploadId: `up-${fileId}`,
  partSize: 5 * MiB,
  partCount: 2,
  status: 'pending',
  createdAt: now - 120_000 + Number(fileId.slice(-1)),
  ...extra,
});

const part = (fileId: string, partNumber: number, at?: number) => ({
  ...keys.transferPart(SLUG, fileId, partNumber),
  fileId,
  partNumber,
  etag: `"${fileId}-${partNumber}"`,
  size: 5 * MiB,
  ...(at !== undefined ? { at } : {}),
});

/** The table as the services read it: the transfer, its files, parts and waiting list by key prefix. */
function given(opts: {
  transfer?: Record<string, unknown>;
  files?: Record<string, unknown>[];
  parts?: Record<string, unknown>[];
  watchers?: Record<string, unknown>[];
}) {
  const t = transfer(opts.transfer);
  const files = opts.files ?? [];
  ddbMock.on(GetCommand, { Key: keys.transfer(SLUG) }).resolves({ Item: t });
  for (const f of files)
    ddbMock.on(GetCommand, { Key: keys.transferFile(SLUG, String(f.fileId)) }).resolves({ Item: f });
  ddbMock.on(QueryCommand).callsFake(async (input: { ExpressionAttributeValues: Record<string, string> }) => {
    const prefix = String(input.ExpressionAttributeValues[':p']);
    if (prefix === keys.filePrefix) return { Items: files };
    if (prefix === keys.allPartsPrefix) return { Items: opts.parts ?? [] };
    if (prefix === keys.watcherPrefix) return { Items: opts.watchers ?? [] };
    return { Items: [] };
  });
}

const mailsTo = () => ses.commandCalls(SendEmailCommand).map((c) => c.args[0].input.Destination?.ToAddresses?.[0]);
const mailSubjects = () =>
  ses.commandCalls(SendEmailCommand).map((c) => c.args[0].input.Content?.Simple?.Subject?.Data);

async function httpError(p: Promise<unknown>): Promise<HttpError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(HttpError);
  return err as HttpError;
}

beforeEach(() => {
  ddbMock.reset();
  ses.reset();
  ddbMock.on(GetCommand).resolves({});
  ddbMock.on(UpdateCommand).resolves({});
  ddbMock.on(PutCommand).resolves({});
  ddbMock.on(TransactWriteCommand).resolves({});
  ddbMock.on(QueryCommand).resolves({ Items: [] });
  ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
});

describe('the time left', () => {
  it('comes from the bytes after the first piece of the last 10 minutes, over the time since it', () => {
    // 4 pieces of 5 MiB, 10 s apart: 15 MiB in 30 s = 0.5 MiB/s; 40 MiB left -> 80 s, the last piece just now
    const events = [0, 10_000, 20_000, 30_000].map((dt) => ({ at: now - 30_000 + dt, bytes: 5 * MiB }));
    expect(estimateSecondsLeft(events, 40 * MiB, now - 60_000, now)).toBe(80);
    // 20 s after the last piece, 20 of those seconds have passed
    expect(estimateSecondsLeft(events, 40 * MiB, now - 60_000, now + 20_000)).toBe(60);
  });

  it('leaves out pieces older than the window, so a pause and resume is not averaged in', () => {
    const old = { at: now - RATE_WINDOW_MS - 3_600_000, bytes: 100 * MiB };
    const recent = [0, 10_000].map((dt) => ({ at: now - 10_000 + dt, bytes: 5 * MiB }));
    expect(estimateSecondsLeft([old, ...recent], 5 * MiB, now - 5 * 3_600_000, now)).toBe(10);
  });

  it('with one piece, averages since the transfer was created', () => {
    expect(estimateSecondsLeft([{ at: now, bytes: 10 * MiB }], 20 * MiB, now - 10_000, now)).toBe(20);
  });

  it('says nothing without pieces, when stalled, or when nothing is left', () => {
    expect(estimateSecondsLeft([], 10 * MiB, now - 10_000, now)).toBeUndefined();
    const events = [{ at: now - STALLED_AFTER_MS - 1, bytes: MiB }];
    expect(estimateSecondsLeft(events, 10 * MiB, now - STALLED_AFTER_MS - 60_000, now)).toBeUndefined();
    expect(estimateSecondsLeft([{ at: now, bytes: MiB }], 0, now - 1000, now)).toBeUndefined();
  });

  it('never says less than a second while bytes are left', () => {
    const events = [0, 1000].map((dt) => ({ at: now - 60_000 + dt, bytes: 100 * MiB }));
    expect(estimateSecondsLeft(events, 1, now - 120_000, now - 59_000 + 1000)).toBe(1);
  });
});

describe('the download page asks again', () => {
  it('after 3 s, half as long again each time nothing arrived, up to a minute', () => {
    expect([0, 1, 2, 3].map(livePollDelayMs)).toEqual([3000, 4500, 6750, 10_125]);
    expect(livePollDelayMs(30)).toBe(60_000);
  });
});

describe('which sends are shared at their start', () => {
  it('a link send always; an email send only when its sender chose to mail now', () => {
    expect(livesFromStart({ sendAs: 'link' })).toBe(true);
    expect(livesFromStart({ sendAs: 'email' })).toBe(false);
    expect(livesFromStart({ sendAs: 'email', mailNow: false })).toBe(false);
    expect(livesFromStart({ sendAs: 'email', mailNow: true })).toBe(true);
  });
});

describe('the download page of a transfer still uploading', () => {
  it('is 404 unless the transfer was shared at its start, as before', async () => {
    given({ transfer: { liveAt: undefined } });
    const err = await httpError(downloadView(SLUG, viewer, now));
    expect([err.statusCode, err.code]).toEqual([404, 'transfer_not_found']);
  });

  it('lists only the complete files and counts the rest, with the bytes of their recorded parts and the time left', async () => {
    given({
      files: [
        file('F1', { status: 'uploaded', scanStatus: 'clean', uploadedAt: now - 60_000 }),
        file('F2'),
        file('F3', { mode: 'single', uploadId: undefined, partSize: undefined, partCount: undefined }),
      ],
      parts: [
        part('F1', 1, now - 90_000),
        part('F1', 2, now - 60_000),
        part('F2', 1, now - 30_000),
        // a part recorded before parts carried their time counts, without a time
        part('F2', 2),
      ],
    });
    const view = await downloadView(SLUG, viewer, now);
    expect(view.files.map((f) => f.fileId)).toEqual(['F1']);
    expect(view.title).toBe('3 files');
    // 10 MiB of F1, both parts of F2; F3 nothing yet
    expect(view.upload).toMatchObject({ fileCount: 3, filesDone: 1, totalBytes: 30 * MiB, bytesDone: 20 * MiB });
    // 10 MiB in the 60 s after the window's first piece: 10 MiB left take 60 s, the last piece was 30 s ago
    expect(view.upload?.secondsLeft).toBe(30);
  });

  it('serves a complete file, never one still uploading', async () => {
    given({ files: [file('F1', { status: 'uploaded', scanStatus: 'clean' }), file('F2', { status: 'completing' })] });
    const err = await httpError(fileDownload(SLUG, 'F2', viewer, now));
    expect([err.statusCode, err.code]).toEqual([404, 'file_not_found']);
  });

  it('refuses "Download all" until every file is in (409 transfer_uploading)', async () => {
    given({ files: [file('F1', { status: 'uploaded', scanStatus: 'clean' }), file('F2')] });
    const err = await httpError(zipDownload(SLUG, viewer, now));
    expect([err.statusCode, err.code]).toEqual([409, 'transfer_uploading']);
  });

  it('keeps the password: a live transfer with one answers 401 without it', async () => {
    given({ transfer: { passwordHash: 'scrypt$x$y' } });
    const err = await httpError(downloadView(SLUG, viewer, now));
    expect([err.statusCode, err.code]).toEqual([401, 'password_required']);
  });

  it('says withdrawn (410) once a live transfer was cancelled; an unshared cancelled one stays 404', async () => {
    given({ transfer: { status: 'cancelled' } });
    const err = await httpError(downloadView(SLUG, viewer, now));
    expect([err.statusCode, err.code]).toEqual([410, 'transfer_withdrawn']);
    given({ transfer: { status: 'cancelled', liveAt: undefined } });
    const other = await httpError(downloadView(SLUG, viewer, now));
    expect(other.statusCode).toBe(404);
  });
});

describe("'Mail me when it's complete'", () => {
  const putsOfWatchers = () =>
    ddbMock.commandCalls(PutCommand).filter((c) => String(c.args[0].input.Item?.sk).startsWith(keys.watcherPrefix));

  it('puts the address on the waiting list once, conditionally, with a ttl past the upload window', async () => {
    given({});
    await watchTransfer(SLUG, viewer, 'waiting@example.com', 'de', now);
    const [put] = putsOfWatchers();
    expect(put?.args[0].input).toMatchObject({
      Item: { ...keys.transferWatcher(SLUG, 'waiting@example.com'), email: 'waiting@example.com', lang: 'de' },
      ConditionExpression: 'attribute_not_exists(pk)',
    });
    expect(Number(put?.args[0].input.Item?.ttl) * 1000).toBeGreaterThan(now + 604_800_000);
  });

  it('answers a second ask of the same address alike (the conditional put refused)', async () => {
    given({});
    ddbMock.on(PutCommand).rejects(conditionFailed());
    await expect(watchTransfer(SLUG, viewer, 'waiting@example.com', undefined, now)).resolves.toBeUndefined();
  });

  it('is 409 transfer_complete once the transfer is complete', async () => {
    given({ transfer: { status: 'ready', dateSent: now - 1000 } });
    const err = await httpError(watchTransfer(SLUG, viewer, 'waiting@example.com', undefined, now));
    expect([err.statusCode, err.code]).toEqual([409, 'transfer_complete']);
    expect(putsOfWatchers()).toHaveLength(0);
  });

  it('is 429 past the per-client limit, and adds nobody', async () => {
    given({});
    ddbMock
      .on(UpdateCommand, { Key: keys.rateWindow('watch-ip', viewer.sourceIp, Math.floor(now / 3_600_000) * 3_600_000) })
      .rejects(conditionFailed());
    const err = await httpError(watchTransfer(SLUG, viewer, 'waiting@example.com', undefined, now));
    expect(err.statusCode).toBe(429);
    expect(WATCH_PER_IP.limit).toBeGreaterThan(1);
    expect(putsOfWatchers()).toHaveLength(0);
  });
});

describe('mail of a transfer shared at its start', () => {
  const email = { sendAs: 'email', recipients: [{ email: 'to@example.com', recipientId: 'r1' }] };

  it('the completion does not mail recipients mailed at the start again, and mails those waiting', async () => {
    given({
      transfer: { ...email, recipientsMailedAt: now - 120_000 },
      files: [file('F1', { status: 'uploaded', scanStatus: 'clean' })],
      watchers: [
        {
          ...keys.transferWatcher(SLUG, 'waiting@example.com'),
          email: 'waiting@example.com',
          lang: 'en',
          createdAt: now,
        },
      ],
    });
    await completeTransfer(transfer({ ...email, recipientsMailedAt: now - 120_000 }), now);
    expect(mailsTo()).not.toContain('to@example.com');
    expect(mailsTo()).toContain('waiting@example.com');
    // the transfer mail, with the download page's link
    const toWaiting = ses
      .commandCalls(SendEmailCommand)
      .find((c) => c.args[0].input.Destination?.ToAddresses?.[0] === 'waiting@example.com');
    expect(toWaiting?.args[0].input.Content?.Simple?.Body?.Text?.Data).toContain(`/w/${SLUG}`);
    expect(toWaiting?.args[0].input.Content?.Simple?.Subject?.Data).toContain('sent you');
  });

  it('a send not shared at its start mails its recipients at completion as before, and nobody else', async () => {
    given({
      transfer: { ...email, liveAt: undefined },
      files: [file('F1', { status: 'uploaded', scanStatus: 'clean' })],
    });
    await completeTransfer(transfer({ ...email, liveAt: undefined }), now);
    expect(mailsTo()).toContain('to@example.com');
    expect(
      ddbMock
        .commandCalls(QueryCommand)
        .some((c) => c.args[0].input.ExpressionAttributeValues?.[':p'] === keys.watcherPrefix),
    ).toBe(false);
  });

  it('a withdrawal tells every recipient mailed at the start and everyone waiting, each address once', async () => {
    given({
      watchers: [
        { email: 'waiting@example.com', lang: 'fr', createdAt: now },
        { email: 'to@example.com', lang: 'en', createdAt: now },
      ],
    });
    await mailWithdrawn(transfer({ ...email, recipientsMailedAt: now - 1000 }), [file('F1') as never]);
    expect(mailsTo().sort()).toEqual(['to@example.com', 'waiting@example.com']);
    expect(mailSubjects()).toContain('« F1.bin » a été retiré');
  });

  it('a transfer not shared at its start withdraws nothing: nobody is mailed', async () => {
    given({ watchers: [{ email: 'waiting@example.com', lang: 'en', createdAt: now }] });
    await mailWithdrawn(transfer({ liveAt: undefined }), [file('F1') as never]);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });
});
