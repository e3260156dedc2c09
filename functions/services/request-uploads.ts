/**
 * The end of a visitor's upload to a file request, reached from POST
 * /transfers/{id}/complete: the upload becomes the requester's (one transaction: finished,
 * listed under the request, the request's counters), then the requester hears of it: a bell
 * notification always, and a mail unless their requestSettings.emailOnUpload is false. Neither
 * notice undoes the upload when it fails (logged).
 */
import type { CompleteResponse } from '../domain/transfer-api';
import { totalSize } from '../domain/file-filters';
import * as data from '../data/transfers';
import type { FileRecord, TransferRecord } from '../data/transfers';
import { finishUpload, getRequest, type RequestUploadRecord } from '../data/requests';
import { putRequestUploadNotification } from '../data/notifications';
import { getProfile } from '../data/users';
import { config } from '../lib/env';
import { errorFields, log } from '../lib/log';
import { mailRequestUpload } from './mail';
import { linkOriginOf } from './link-origin';
import { publishEvent } from './events';

export async function completeRequestUpload(
  t: TransferRecord,
  files: readonly FileRecord[],
  expiryDate: number,
  now: number,
): Promise<CompleteResponse> {
  const requestId = t.requestId!;
  const upload: RequestUploadRecord = {
    requestId,
    slug: t.slug,
    senderName: t.senderName ?? '',
    senderEmail: t.senderEmail,
    message: t.message,
    uploadedAt: now,
    expiryDate,
    fileCount: files.length,
    totalBytes: totalSize(files),
  };
  const first = await finishUpload(t, upload);
  // on the requester's verified custom domain, as for their own sends
  const link = `${await linkOriginOf(t)}/w/${t.slug}`;
  if (!first) {
    // A repeated completion: the upload is in place already.
    const again = await data.getTransfer(t.slug);
    return { id: t.slug, state: 'complete', link, expiryDate: again?.expiryDate ?? expiryDate, recipients: [] };
  }
  await notifyRequester(upload, files).catch((err: unknown) =>
    log.error('request upload notice failed', { slug: t.slug, ...errorFields(err) }),
  );
  // the requester's `request.uploaded` (publishEvent logs and never throws)
  const request = await getRequest(requestId).catch(() => undefined);
  if (request) {
    await publishEvent({
      type: 'request.uploaded',
      userId: request.ownerId,
      at: now,
      data: {
        requestId,
        requestTitle: request.title,
        transferId: t.slug,
        senderName: upload.senderName,
        senderEmail: upload.senderEmail,
        fileCount: upload.fileCount,
        totalBytes: upload.totalBytes,
        expiryDate: new Date(expiryDate).toISOString(),
      },
    });
  }
  return { id: t.slug, state: 'complete', link, expiryDate, recipients: [] };
}

async function notifyRequester(upload: RequestUploadRecord, files: readonly FileRecord[]): Promise<void> {
  const request = await getRequest(upload.requestId);
  if (!request) return;
  await putRequestUploadNotification(request.ownerId, upload.uploadedAt, upload.slug, files[0]?.fileName ?? '', {
    requestId: request.id,
    requestTitle: request.title,
    senderName: upload.senderName,
    senderEmail: upload.senderEmail,
    fileCount: upload.fileCount,
    totalBytes: upload.totalBytes,
  });
  const owner = await getProfile(request.ownerId);
  if (!owner || owner.requestSettings?.emailOnUpload === false) return;
  await mailRequestUpload(owner.email, owner.lang, {
    requestTitle: request.title,
    senderName: upload.senderName,
    senderEmail: upload.senderEmail,
    message: upload.message,
    files: files.map((f) => ({ fileName: f.fileName, size: f.size })),
    expiryDate: upload.expiryDate,
    requestLink: `${config().appOrigin}/dash/requests/${request.id}`,
  });
}
