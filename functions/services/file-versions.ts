/**
 * A new version of a file of a sent transfer (domain/file-versions.ts has the rules): a file
 * record of its own, planned and uploaded like an added file (same parts, same completion,
 * malware scan, digest and thumbnail), under a new upload token. Once uploaded it is the current
 * version; the transfer's completion (POST /transfers/{id}/complete) refreshes the totals and
 * mails the recipients when the sender asked for it (services/version-notice.ts).
 */
import * as data from '../data/transfers';
import type { FileRecord, TransferRecord } from '../data/transfers';
import * as storage from '../adapters/storage';
import { E2E_REFUSALS } from '../domain/e2e-params';
import { fileEntrySchema } from '../domain/file-entry-schema';
import { checkNewVersion, type NewVersionRefusal } from '../domain/file-versions';
import { RESUME_WINDOW_SECONDS } from '../domain/expiry';
import type { CreateTransferResponse, newVersionRequestSchema } from '../domain/transfer-api';
import { HttpError, badRequest, conflict, gone, notFound, problemsError } from '../lib/errors';
import { problemOfSendIssue } from '../domain/validation';
import { hashToken, newToken } from '../lib/secrets';
import type * as z from 'zod/mini';
import { releaseBytes, reserveMore } from './limits';
import { linkOriginOf } from './link-origin';
import { refOf } from './object-refs';
import { downloadLink, planFiles, plannedFiles, requireOwner, urlLifetime, type Sender } from './transfers';

const SECOND = 1000;

function refusalError(r: NewVersionRefusal): HttpError {
  switch (r.code) {
    case 'file_not_found':
      return notFound('file_not_found', 'This file is not part of the transfer.');
    case 'not_current_version':
      return new HttpError(
        409,
        'not_current_version',
        'A newer version of this file exists: send the new version of the current one.',
        { currentFileId: r.currentFileId },
      );
    case 'version_completing':
      return conflict('version_completing', 'A version of this file is still being put together; try again shortly.');
    case 'too_many_versions':
      return badRequest('too_many_versions', `A file can have at most ${r.limit} versions.`, { limit: r.limit });
    case 'file_not_allowed':
      return problemsError([
        problemOfSendIssue({ path: ['fileName'], code: 'file_not_allowed', params: { fileName: r.fileName } }),
      ]);
    case 'transfer_too_large':
      return badRequest('transfer_too_large', 'This version would make the transfer larger than your plan allows', {
        limit: r.limit,
      });
  }
}

/**
 * POST /transfers/{id}/files/{fileId}/versions: the owner's new version of `fileId` (the
 * current version of one of the transfer's files) on a transfer that is sent and not expired.
 */
export async function startNewVersion(
  slug: string,
  fileId: string,
  body: z.output<typeof newVersionRequestSchema>,
  sender: Extract<Sender, { kind: 'user' }>,
  now = Date.now(),
): Promise<CreateTransferResponse> {
  const t = await requireOwner(slug, sender.userId);
  if (t.status === 'uploading')
    throw conflict('transfer_not_sent', 'This transfer has not been sent yet: finish its upload first.');
  if (t.status !== 'ready' || now >= t.expiryDate || t.purged)
    throw gone('transfer_expired', 'This transfer has expired; its files can no longer change.');
  if (t.disabledAt !== undefined) throw gone('transfer_disabled', 'This transfer was disabled after a report.');
  if (t.e2e) throw conflict('encrypted_new_version', E2E_REFUSALS.encrypted_new_version);
  const entry = fileEntrySchema.safeParse({ fileName: body.fileName, size: body.size });
  if (!entry.success) throw badRequest('invalid_request', 'This file name cannot be used.');
  const existing = await data.listFiles(t.slug);
  const checked = checkNewVersion(existing, fileId, entry.data, sender.role);
  if (!checked.ok) throw refusalError(checked.refusal);
  await reserveMore(t, sender.profile, checked.entry.size, now);
  await dropAbandoned(
    t,
    existing.filter((f) => checked.abandoned.includes(f.fileId)),
  );
  const [planned] = await planFiles(t, [checked.entry], now, hintsOf(body.uploadBytesPerSecond));
  const file: FileRecord = {
    ...planned!,
    versionOf: checked.versionOf,
    version: checked.version,
    ...(body.notify ? { notifyRecipients: true as const } : {}),
  };
  const uploadToken = newToken();
  const uploadTokenExpiresAt = Math.min(now + RESUME_WINDOW_SECONDS * SECOND, t.expiryDate);
  await data.addFiles(t.slug, [file], hashToken(uploadToken), uploadTokenExpiresAt);
  const updated: TransferRecord = { ...t, uploadTokenExpiresAt };
  return {
    id: t.slug,
    uploadToken,
    region: t.region,
    sendAs: t.sendAs,
    link: downloadLink(t.slug, await linkOriginOf(t)),
    expiryDate: t.expiryDate,
    files: await plannedFiles(updated, [file], urlLifetime(updated, now)),
  };
}

const hintsOf = (bytesPerSecond: number | undefined) => (bytesPerSecond === undefined ? {} : { bytesPerSecond });

/**
 * Files left pending by an earlier upload to this sent transfer: the new upload token ends
 * theirs, and the transfer's completion waits for every file, so they go (with their bytes).
 */
async function dropAbandoned(t: TransferRecord, files: readonly FileRecord[]): Promise<void> {
  if (files.length === 0) return;
  await Promise.all(
    files.map(async (f) => {
      if (f.mode === 'multipart' && f.uploadId) await storage.abortMultipart(refOf(t, f.key), f.uploadId);
      await storage.deleteObject(refOf(t, f.key));
    }),
  );
  await data.deleteFiles(
    t.slug,
    files.map((f) => f.fileId),
  );
  await releaseBytes(
    t,
    files.reduce((s, f) => s + f.size, 0),
  );
}
