/**
 * The dashboard's reads of a sender's transfers (docs/data-model.md, patterns 34-36): pages of
 * the list indexes (gsi1 by send time, gsi3 by expiry in LIVE / ENDED partitions, gsi4 while
 * nobody downloaded), the counters item, and the bounded count of transfers past their expiry
 * that the sweep has not marked yet. Nothing here reads every transfer of a sender to count.
 */
import { ddb, type QueryCommandInput } from '../lib/clients/dynamodb';
import { countAll, table } from './base';
import { keys } from './keys';
import type { TransferRecord } from './transfers';

/** A list index read: which index, which partition, which sort-key range, which direction. */
export interface ListSource {
  readonly index: 'gsi1' | 'gsi3' | 'gsi4';
  readonly partition: string;
  /** sort key strictly above / at most (gsi3/gsi4 keys are `<expiry>#<slug>`) */
  readonly above?: string;
  readonly atMost?: string;
  readonly newestFirst: boolean;
}

/** Pattern 35: the rows of a sender's list, in order, a Query page at a time (lazily). */
export async function* listItems(
  source: ListSource,
  opts: { search?: string; pageSize: number },
): AsyncGenerator<TransferRecord> {
  const input = { ...listQuery(source, opts.search), Limit: opts.pageSize };
  let start: Record<string, unknown> | undefined;
  do {
    const out = await ddb().query({ TableName: table(), ...input, ExclusiveStartKey: start });
    for (const item of out.Items ?? []) yield item as unknown as TransferRecord;
    start = out.LastEvaluatedKey;
  } while (start);
}

/**
 * How many rows a list source holds (the unseen and expiring-soon filters' counts): a COUNT
 * Query of the same key range and filter as its pages, bounded like the list itself (gsi4 holds
 * only the live transfers nobody downloaded, the expiring range only the next days' expiries).
 */
export function countListed(source: ListSource): Promise<number> {
  return countAll(listQuery(source, undefined));
}

function listQuery(
  source: ListSource,
  search: string | undefined,
): Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit'> {
  const pk = `${source.index}pk`;
  const sk = `${source.index}sk`;
  const names: Record<string, string> = { '#pk': pk };
  const values: Record<string, unknown> = { ':pk': source.partition };
  let condition = '#pk = :pk';
  if (source.above !== undefined && source.atMost !== undefined) {
    condition += ' AND #sk BETWEEN :lo AND :hi';
    Object.assign(names, { '#sk': sk });
    // BETWEEN is inclusive; keys never equal the bound strings (they end in `#~`).
    Object.assign(values, { ':lo': source.above, ':hi': source.atMost });
  } else if (source.above !== undefined) {
    condition += ' AND #sk > :lo';
    Object.assign(names, { '#sk': sk });
    values[':lo'] = source.above;
  } else if (source.atMost !== undefined) {
    condition += ' AND #sk <= :hi';
    Object.assign(names, { '#sk': sk });
    values[':hi'] = source.atMost;
  }
  // Only sent transfers are listed; the filter is a safety net for items of older checkouts.
  const filters = ['#st IN (:ready, :expired)'];
  Object.assign(names, { '#st': 'status' });
  Object.assign(values, { ':ready': 'ready', ':expired': 'expired' });
  if (search) {
    filters.push('contains(searchText, :q)');
    values[':q'] = search;
  }
  return {
    IndexName: source.index,
    KeyConditionExpression: condition,
    FilterExpression: filters.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ScanIndexForward: !source.newestFirst,
  };
}

/** Pattern 34 (read): a sender's counters of listed transfers. */
export async function transferStats(userId: string): Promise<{ all: number; expired: number }> {
  const out = await ddb().get({ TableName: table(), Key: keys.transferStats(userId), ConsistentRead: true });
  return { all: Number(out.Item?.all ?? 0), expired: Number(out.Item?.expired ?? 0) };
}

/**
 * Pattern 36: how many of a sender's ready transfers are past their expiry but not yet marked
 * by the sweep. Bounded: the sweep marks them every 15 minutes, so this counts at most the
 * transfers that expired since its last run.
 */
export function countExpiredUnswept(userId: string, now: number): Promise<number> {
  return countAll({
    IndexName: 'gsi3',
    KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk <= :now',
    ExpressionAttributeValues: { ':pk': keys.transferListPartition(userId, 'LIVE'), ':now': keys.expiryBound(now) },
  });
}
