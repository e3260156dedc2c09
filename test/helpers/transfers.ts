/**
 * Drives the transfer API the way the app does, against the local stack: guest verification
 * through the SES inbox, signed-in users through cognito-local, uploads straight to s3rver.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { LocalApp } from '../../scripts/local/app';
import { createSignedInUser } from '../../scripts/local/users';
import type { CreateTransferResponse, PlannedFile, SignResponse } from '../../functions/domain/transfer-api';
import { partRange } from '../../functions/domain/upload';
import { crc32Portable } from '../../functions/domain/crc32';
import type { FileRecord } from '../../functions/data/transfers';
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from '../../functions/data/keys';
import { dynamo } from '../../scripts/local/sdk-dynamo';
import { api } from './local-app';

export interface StoredMail {
  messageId: string;
  from: string;
  destination: { to: string[] };
  subject: string;
  body: { html: string; text: string };
  at: number;
}

export async function mailsTo(app: LocalApp, to: string): Promise<StoredMail[]> {
  const res = await fetch(`${app.stack.urls.sesInbox}/store`);
  const { emails } = (await res.json()) as { emails: StoredMail[] };
  return emails.filter((m) => m.destination.to.some((t) => t.toLowerCase().includes(to.toLowerCase())));
}

/** The newest mail to `to` whose text matches, waiting for it (a loaded machine can take a while). */
export async function waitForMail(app: LocalApp, to: string, match: RegExp, timeoutMs = 60_000): Promise<StoredMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await mailsTo(app, to)).filter((m) => match.test(m.body.text)).pop();
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${match}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export function json(body: unknown, headers: Record<string, string> = {}, method = 'POST'): RequestInit {
  return { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}

/** Verifies a guest sender through the mailed code; returns the sender token. */
export async function guestToken(app: LocalApp, email: string): Promise<string> {
  const sent = await api(app, '/verifyEmail', json({ email, lang: 'en' }));
  if (sent.status !== 202) throw new Error(`verifyEmail ${sent.status} ${sent.text}`);
  const mail = await waitForMail(app, email, /\b\d{5}\b/);
  const code = /\b(\d{5})\b/.exec(mail.body.text)![1]!;
  const checked = await api(app, '/checkVerifyEmail', json({ email, code }));
  if (checked.status !== 200) throw new Error(`checkVerifyEmail ${checked.status} ${checked.text}`);
  return checked.json.senderToken as string;
}

export interface TestUser {
  email: string;
  accessToken: string;
  sub: string;
}

export async function createUser(app: LocalApp, email: string, role = 'pro', lang?: string): Promise<TestUser> {
  return createSignedInUser(app, email, { role, ...(lang ? { lang } : {}) });
}

export const bearer = (u: TestUser) => ({ authorization: `Bearer ${u.accessToken}` });

export function sha256(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function randomData(size: number): Buffer {
  return randomBytes(size);
}

async function putOk(url: string, body: Uint8Array): Promise<string> {
  const res = await fetch(url, { method: 'PUT', body: body as unknown as BodyInit });
  if (!res.ok) throw new Error(`PUT ${res.status} ${await res.text()}`);
  return res.headers.get('etag') ?? '';
}

export async function sign(
  app: LocalApp,
  id: string,
  token: string,
  fileId: string,
  partNumbers?: number[],
): Promise<SignResponse> {
  const res = await api(
    app,
    `/transfers/${id}/sign`,
    json({ fileId, ...(partNumbers ? { partNumbers } : {}) }, { 'x-upload-token': token }),
  );
  if (res.status !== 200) throw new Error(`sign ${res.status} ${res.text}`);
  return res.json as SignResponse;
}

/** Uploads one part and records it with its CRC-32, as the upload engine does. */
export async function uploadPart(
  app: LocalApp,
  t: CreateTransferResponse,
  f: PlannedFile,
  data: Uint8Array,
  partNumber: number,
): Promise<void> {
  const { parts } = await sign(app, t.id, t.uploadToken, f.fileId, [partNumber]);
  const { start, end } = partRange(f.size, partNumber, f.partSize);
  const bytes = data.subarray(start, end);
  const etag = await putOk(parts![0]!.url, bytes);
  const rec = await api(
    app,
    `/transfers/${t.id}/parts`,
    json(
      { fileId: f.fileId, partNumber, etag, size: end - start, crc32: crc32Portable(bytes) },
      { 'x-upload-token': t.uploadToken },
    ),
  );
  if (rec.status !== 200) throw new Error(`record part ${rec.status} ${rec.text}`);
}

/** Completes one file; `crc32` is a single PUT's, sent as the upload engine sends it. */
export async function completeFile(app: LocalApp, t: CreateTransferResponse, fileId: string, crc32?: number) {
  if (crc32 !== undefined)
    return api(
      app,
      `/transfers/${t.id}/files/${fileId}/complete`,
      json({ crc32 }, { 'x-upload-token': t.uploadToken }),
    );
  return api(app, `/transfers/${t.id}/files/${fileId}/complete`, {
    method: 'POST',
    headers: { 'x-upload-token': t.uploadToken },
  });
}

/** Uploads every planned file (parts in order) and completes each file; `skipParts` leaves parts out. */
export async function uploadAll(
  app: LocalApp,
  t: CreateTransferResponse,
  contents: Map<string, Uint8Array>,
): Promise<void> {
  for (const f of t.files) {
    const data = contents.get(f.itemPath ?? f.fileName);
    if (!data) throw new Error(`no content for ${f.fileName}`);
    // past the first SIGNED_URLS_PER_ANSWER single files the plan has no URL: /sign gives it
    if (f.mode === 'single') await putOk(f.url ?? (await sign(app, t.id, t.uploadToken, f.fileId)).url!, data);
    else for (let n = 1; n <= f.partCount!; n += 1) await uploadPart(app, t, f, data, n);
    const done = await completeFile(app, t, f.fileId, f.mode === 'single' ? crc32Portable(data) : undefined);
    if (done.status !== 200) throw new Error(`complete file ${done.status} ${done.text}`);
  }
}

export async function completeTransfer(app: LocalApp, t: CreateTransferResponse) {
  return api(app, `/transfers/${t.id}/complete`, { method: 'POST', headers: { 'x-upload-token': t.uploadToken } });
}

export async function fetchBytes(url: string): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  const res = await fetch(url);
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

/** A signed-in send of `files` (keyed by path), uploaded and completed. */
export async function sendFiles(
  app: LocalApp,
  user: TestUser,
  files: ReadonlyMap<string, Uint8Array>,
  extra: Record<string, unknown> = {},
): Promise<CreateTransferResponse> {
  const fileObjects = [...files].map(([itemPath, d]) => ({
    fileName: itemPath.split('/').pop()!,
    ...(itemPath.includes('/') ? { itemPath } : {}),
    size: d.length,
  }));
  const res = await api(app, '/me/transfers', json({ sendAs: 'link', fileObjects, ...extra }, bearer(user)));
  if (res.status !== 201) throw new Error(`create ${res.status} ${res.text}`);
  const t = res.json as CreateTransferResponse;
  await uploadAll(app, t, new Map(files));
  const done = await completeTransfer(app, t);
  if (done.status !== 200) throw new Error(`complete ${done.status} ${done.text}`);
  return t;
}

/** A download of the transfer's first file from `country`, as CloudFront reports it; through a recipient's own link when `recipient` is given. */
export async function downloadFrom(
  app: LocalApp,
  t: CreateTransferResponse,
  country: string,
  recipient?: string,
): Promise<void> {
  const res = await api(app, '/getDownload/file', {
    ...json({ id: t.id, fileId: t.files[0]!.fileId, ...(recipient ? { recipient } : {}) }),
    headers: { 'content-type': 'application/json', 'cloudfront-viewer-country': country },
  });
  if (res.status !== 200) throw new Error(`download ${res.status} ${res.text}`);
}

/** The recipients' own link ids (/downloads/{slug}/{recipientId}), as the mail carries them, read from the transfer item. */
export async function recipientIdsOf(app: LocalApp, slug: string): Promise<Map<string, string>> {
  const out = await dynamo().send(new GetCommand({ TableName: app.stack.env.TABLE_NAME, Key: keys.transfer(slug) }));
  return new Map(
    (out.Item!.recipients as { email: string; recipientId: string }[]).map((r) => [r.email, r.recipientId]),
  );
}

/** A file's record as stored (its status, its CRC-32...), read from the table. */
export async function fileRecordOf(app: LocalApp, slug: string, fileId: string): Promise<FileRecord | undefined> {
  const out = await dynamo().send(
    new GetCommand({ TableName: app.stack.env.TABLE_NAME, Key: keys.transferFile(slug, fileId) }),
  );
  return out.Item as FileRecord | undefined;
}

/** Every file record of a transfer as stored. */
export async function fileRecordsOf(app: LocalApp, slug: string): Promise<FileRecord[]> {
  const out = await dynamo().send(
    new QueryCommand({
      TableName: app.stack.env.TABLE_NAME,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': keys.transfer(slug).pk, ':p': keys.filePrefix },
      ConsistentRead: true,
    }),
  );
  return (out.Items ?? []) as FileRecord[];
}
