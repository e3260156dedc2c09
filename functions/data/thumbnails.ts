/**
 * An image's thumbnail state on its file item (`TRANSFER#<slug>/FILE#<fileId>`):
 * `thumbStatus` building / ready / failed, when the build started and the thumbnail's bytes.
 * Claimed by a conditional write, so two page loads start one build; a build that has not
 * finished in time may be claimed again (the job crashed).
 */
import { ddb } from '../lib/clients/dynamodb';
import { conditionalWrite, table } from './base';
import { keys } from './keys';

/** True when this caller may build the thumbnail now (no state yet, or a build gone stale). */
export async function claimThumbnail(slug: string, fileId: string, now: number, staleBefore: number): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transferFile(slug, fileId),
      UpdateExpression: 'SET thumbStatus = :b, thumbStartedAt = :now',
      ConditionExpression:
        'attribute_exists(pk) AND #s = :u AND (attribute_not_exists(thumbStatus) OR (thumbStatus = :b AND thumbStartedAt < :stale))',
      ExpressionAttributeNames: { '#s': 'status' },
      ExpressionAttributeValues: { ':b': 'building', ':now': now, ':stale': staleBefore, ':u': 'uploaded' },
    }),
  );
}

/** Gives a claim back (the job could not be started): the next page load claims it again. */
export async function releaseThumbnailClaim(slug: string, fileId: string, startedAt: number): Promise<void> {
  await conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transferFile(slug, fileId),
      UpdateExpression: 'REMOVE thumbStatus, thumbStartedAt',
      ConditionExpression: 'thumbStatus = :b AND thumbStartedAt = :at',
      ExpressionAttributeValues: { ':b': 'building', ':at': startedAt },
    }),
  );
}

/**
 * The build's outcome. `ready` only over this build's own claim, so a build that went stale
 * and was claimed again does not finish twice; false when the claim was no longer this one's.
 */
export async function finishThumbnail(
  slug: string,
  fileId: string,
  startedAt: number,
  result: { status: 'ready'; bytes: number } | { status: 'failed' },
): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transferFile(slug, fileId),
      UpdateExpression: result.status === 'ready' ? 'SET thumbStatus = :r, thumbBytes = :n' : 'SET thumbStatus = :r',
      ConditionExpression: 'thumbStatus = :b AND thumbStartedAt = :at',
      ExpressionAttributeValues: {
        ':r': result.status,
        ':b': 'building',
        ':at': startedAt,
        ...(result.status === 'ready' ? { ':n': result.bytes } : {}),
      },
    }),
  );
}

/** A sealed thumbnail the sender's browser stored (end-to-end encrypted files): ready, its size. */
export async function setSealedThumbnail(slug: string, fileId: string, bytes: number): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().update({
      TableName: table(),
      Key: keys.transferFile(slug, fileId),
      UpdateExpression: 'SET thumbStatus = :r, thumbBytes = :n',
      ConditionExpression: 'attribute_exists(e2e)',
      ExpressionAttributeValues: { ':r': 'ready', ':n': bytes },
    }),
  );
}
