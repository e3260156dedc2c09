/**
 * The optional mail of a new version (POST /transfers/{id}/files/{fileId}/versions with
 * `notify: true`): sent by the transfer's completion once the version is uploaded.
 */
import * as data from '../data/transfers';
import type { FileRecord, TransferRecord } from '../data/transfers';
import { errorFields, log } from '../lib/log';
import { mailNewVersion } from './mail';

/**
 * Mails the recipients of each uploaded version the sender asked to announce, once: the flag
 * is removed before the mail, so a repeated completion mails nobody twice.
 */
export async function announceNewVersions(t: TransferRecord, files: readonly FileRecord[]): Promise<void> {
  const due = files.filter((f) => f.notifyRecipients && f.status === 'uploaded');
  for (const f of due) {
    if (!(await data.clearVersionNotice(t.slug, f.fileId))) continue;
    if (t.sendAs !== 'email' || t.recipients.length === 0) continue;
    try {
      await mailNewVersion(t, f);
    } catch (err) {
      log.error('new version mail not sent', { slug: t.slug, ...errorFields(err) });
    }
  }
}
