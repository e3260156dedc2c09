/**
 * The simulator's state in the single table (docs/data-model.md, "Payments simulator"): one
 * item per Stripe-shaped object (`SIMPAY#<id>` / `OBJECT`) holding the object as Stripe would
 * answer it (`data`) and the simulator's own bookkeeping (`sim`), a version for optimistic
 * writes, and the index keys of the lists it belongs to; plus the clock item.
 */
import { randomBytes } from 'node:crypto';
import { ddb } from '../../../lib/clients/dynamodb';
import { keys } from '../../../data/keys';
import { conditionalWrite, queryAll, table } from '../../../data/base';

export type SimKind =
  | 'customer'
  | 'payment_method'
  | 'checkout_session'
  | 'setup_intent'
  | 'subscription'
  | 'invoice'
  | 'refund'
  | 'event';

export interface SimItem<D = Record<string, unknown>, S = Record<string, unknown>> {
  readonly id: string;
  readonly kind: SimKind;
  readonly data: D;
  readonly sim: S;
  readonly version: number;
}

/** Extra index keys an object is written with (lists, due queue); null removes the pair. */
export interface IndexKeys {
  readonly gsi1?: { gsi1pk: string; gsi1sk: string } | null;
  readonly gsi2?: { gsi2pk: string; gsi2sk: string } | null;
}

/** Thrown when an object changed since it was read (another step of the simulator won). */
export class SimConflictError extends Error {
  constructor(id: string) {
    super(`simulated object ${id} changed concurrently`);
    this.name = 'SimConflictError';
  }
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomChars(length: number): string {
  let out = '';
  for (const b of randomBytes(length)) out += ID_ALPHABET[b % ID_ALPHABET.length];
  return out;
}

/**
 * Stripe-like ids: `<prefix>_sim_` + 16 characters, e.g. sub_sim_0mhx2k9qa4fJ2xQz. The first 9
 * are the wall clock in base 36, so ids made in the same simulated second sort in the order they
 * were made: the customer's lists (subscriptions, invoices) are keyed by created second, then id,
 * and "newest first" must not depend on chance when a user re-subscribes within a second.
 */
export function simId(prefix: string, length = 16): string {
  const time = Date.now().toString(36).padStart(9, '0');
  return `${prefix}_sim_${time}${randomChars(Math.max(length - time.length, 6))}`;
}

/** Client secrets: random all through (never time-ordered). */
export function randomSecret(length = 24): string {
  return randomChars(length);
}

export async function getObject<D, S>(id: string): Promise<SimItem<D, S> | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.simpayObject(id), ConsistentRead: true });
  const item = out.Item;
  if (item?.entity !== 'SimPay') return undefined;
  return {
    id: String(item.id),
    kind: item.kind as SimKind,
    data: item.data as D,
    sim: (item.sim ?? {}) as S,
    version: Number(item.version),
  };
}

/**
 * Writes an object: a new one (`expectedVersion` 0, must not exist) or the next version of
 * the one read (`expectedVersion` = its version), else SimConflictError.
 */
export async function putObject<D, S>(
  item: Omit<SimItem<D, S>, 'version'>,
  expectedVersion: number,
  index: IndexKeys = {},
): Promise<SimItem<D, S>> {
  const version = expectedVersion + 1;
  const written = await conditionalWrite(() =>
    ddb().put({
      TableName: table(),
      Item: {
        ...keys.simpayObject(item.id),
        ...(index.gsi1 ?? {}),
        ...(index.gsi2 ?? {}),
        entity: 'SimPay',
        id: item.id,
        kind: item.kind,
        data: item.data as Record<string, unknown>,
        sim: item.sim as Record<string, unknown>,
        version,
      },
      ...(expectedVersion === 0
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : { ConditionExpression: 'version = :v', ExpressionAttributeValues: { ':v': expectedVersion } }),
    }),
  );
  if (!written) throw new SimConflictError(item.id);
  return { ...item, version };
}

async function queryIndex<D, S>(
  indexName: 'gsi1' | 'gsi2',
  pk: string,
  opts: { upTo?: string; newestFirst?: boolean; limit?: number } = {},
): Promise<SimItem<D, S>[]> {
  const pkName = `${indexName}pk`;
  const skName = `${indexName}sk`;
  const items = await queryAll(
    {
      IndexName: indexName,
      KeyConditionExpression: opts.upTo ? '#pk = :pk AND #sk <= :to' : '#pk = :pk',
      ExpressionAttributeNames: opts.upTo ? { '#pk': pkName, '#sk': skName } : { '#pk': pkName },
      ExpressionAttributeValues: { ':pk': pk, ...(opts.upTo ? { ':to': opts.upTo } : {}) },
      ...(opts.newestFirst ? { ScanIndexForward: false } : {}),
    },
    opts.limit,
  );
  return items
    .filter((i) => i.entity === 'SimPay')
    .map((i) => ({
      id: String(i.id),
      kind: i.kind as SimKind,
      data: i.data as D,
      sim: (i.sim ?? {}) as S,
      version: Number(i.version),
    }));
}

/** A customer's subscriptions or invoices (gsi1), newest first. */
export function listForCustomer<D, S>(kind: 'SUBS' | 'INVOICES', customerId: string): Promise<SimItem<D, S>[]> {
  return queryIndex<D, S>('gsi1', keys.simpayCustomerListPartition(kind, customerId), { newestFirst: true });
}

/** Subscriptions with a step due at or before `at` (gsi2), earliest first. */
export function listDue<D, S>(at: number, limit?: number): Promise<SimItem<D, S>[]> {
  return queryIndex<D, S>('gsi2', keys.simpayDuePartition, {
    upTo: keys.simpayDueUpTo(at),
    ...(limit ? { limit } : {}),
  });
}

export function listEventItems<D, S>(): Promise<SimItem<D, S>[]> {
  return queryIndex<D, S>('gsi1', keys.simpayEventLogPartition);
}

export function listUndeliveredItems<D, S>(): Promise<SimItem<D, S>[]> {
  return queryIndex<D, S>('gsi2', keys.simpayUndeliveredPartition);
}

// ---- the clock ---------------------------------------------------------------------------

const wallSeconds = () => Math.floor(Date.now() / 1000);

export async function clockOffset(): Promise<number> {
  const out = await ddb().get({ TableName: table(), Key: keys.simpayClock, ConsistentRead: true });
  return typeof out.Item?.offset === 'number' ? out.Item.offset : 0;
}

/** The simulator's now: wall time plus the clock's offset (epoch seconds). */
export async function simNow(): Promise<number> {
  return wallSeconds() + (await clockOffset());
}

/** Moves the clock so that now is `at` (never backwards: a test clock only advances). */
export async function setSimNow(at: number): Promise<number> {
  const offset = at - wallSeconds();
  await conditionalWrite(() =>
    ddb().put({
      TableName: table(),
      Item: { ...keys.simpayClock, entity: 'SimPayClock', offset, frozenAt: at },
      ConditionExpression: 'attribute_not_exists(pk) OR #o <= :o',
      ExpressionAttributeNames: { '#o': 'offset' },
      ExpressionAttributeValues: { ':o': offset },
    }),
  );
  return simNow();
}
