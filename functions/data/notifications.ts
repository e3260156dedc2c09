/**
 * In-app notifications of a signed-in sender (spec §3 Notification: _id, slug, read, dlDate,
 * dlCountryCode, receiverEmail, fileName, dlOrigin), under `pk=USER#<id>` (pattern 23).
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../lib/clients';
import { config } from '../lib/env';
import { keys } from './keys';

export interface NotificationRecord {
  readonly _id: string;
  readonly slug: string;
  readonly read: boolean;
  readonly dlDate: number;
  readonly dlCountryCode: string;
  readonly receiverEmail?: string;
  readonly fileName: string;
  readonly dlOrigin: 'file' | 'zip';
}

export async function putNotification(userId: string, n: NotificationRecord): Promise<void> {
  await dynamo().send(
    new PutCommand({
      TableName: config().tableName,
      Item: { ...keys.notification(userId, n.dlDate, n._id), entity: 'Notification', userId, ...n },
    }),
  );
}
