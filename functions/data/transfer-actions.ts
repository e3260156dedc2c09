/**
 * Writes on the transfer item by the TransferModal's actions that data/transfers.ts does not
 * cover (docs/data-model.md): the download password and the expiry choice shown in the modal.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../lib/clients';
import { config } from '../lib/env';
import { keys } from './keys';
import { isConditionFailure } from './transfers';

/**
 * Sets (a hash) or removes (null) the download password of a sent transfer whose files are
 * still kept. False when the transfer is gone, deleted or purged meanwhile.
 */
export async function setPasswordHash(slug: string, passwordHash: string | null): Promise<boolean> {
  try {
    await dynamo().send(
      new UpdateCommand({
        TableName: config().tableName,
        Key: keys.transfer(slug),
        UpdateExpression: passwordHash === null ? 'REMOVE passwordHash' : 'SET passwordHash = :h',
        ConditionExpression: 'attribute_exists(pk) AND #s IN (:ready, :expired) AND attribute_not_exists(purged)',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':ready': 'ready', ':expired': 'expired', ...(passwordHash === null ? {} : { ':h': passwordHash }) },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/**
 * The expiry the owner picked (a preset, or the custom-date marker with its date), kept beside
 * the expiryDate that data/transfers.ts changeExpiry wrote, so the TransferModal shows the choice.
 */
export async function setExpiryChoice(slug: string, expirySeconds: number, customExpiryDate: number | undefined): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: keys.transfer(slug),
      UpdateExpression: customExpiryDate === undefined ? 'SET expirySeconds = :s REMOVE customExpiryDate' : 'SET expirySeconds = :s, customExpiryDate = :c',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':s': expirySeconds, ...(customExpiryDate === undefined ? {} : { ':c': customExpiryDate }) },
    }),
  ).catch((err: unknown) => {
    if (!isConditionFailure(err)) throw err;
  });
}
