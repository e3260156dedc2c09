/**
 * Deliveries (functions/domain/delivery.ts) under their transfer: `TRANSFER#<slug>` /
 * `DELIVERY#<deliveryId>`. Written once (a second write of the same id is refused, so a
 * repeated storage event records nothing twice) and read by receipts and the transfer's modal.
 * They go with the transfer's other items when it is deleted.
 */
import type { DeliveryRecord } from '../domain/delivery';
import { ddb } from '../lib/clients/dynamodb';
import { conditionalWrite, queryAll, table } from './base';
import { keys } from './keys';

const ENTITY = 'Delivery';

/** Records a delivery; false when this delivery id was already recorded. */
export function putDelivery(d: DeliveryRecord): Promise<boolean> {
  return conditionalWrite(() =>
    ddb().put({
      TableName: table(),
      Item: { ...keys.transferDelivery(d.slug, d.deliveryId), entity: ENTITY, ...d },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
}

function toDelivery(item: Record<string, unknown>): DeliveryRecord {
  const { pk: _pk, sk: _sk, entity: _entity, ...rest } = item;
  return rest as unknown as DeliveryRecord;
}

export async function getDelivery(slug: string, deliveryId: string): Promise<DeliveryRecord | null> {
  const out = await ddb().get({
    TableName: table(),
    Key: keys.transferDelivery(slug, deliveryId),
    ConsistentRead: true,
  });
  return out.Item ? toDelivery(out.Item) : null;
}

/** A transfer's deliveries, oldest id first (ids are UUIDv7: time order), at most `limit`. */
export async function listDeliveries(slug: string, limit?: number): Promise<DeliveryRecord[]> {
  const items = await queryAll(
    {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :p)',
      ExpressionAttributeValues: { ':pk': keys.transfer(slug).pk, ':p': keys.deliveryPrefix },
    },
    limit,
  );
  return items.map(toDelivery);
}
