/**
 * What every data module shares (docs/data-model.md): the single table's name, paged queries,
 * transactions, and conditional writes that answer false (or null) when their condition failed,
 * so a lost race is a value the caller decides on rather than an exception each module catches.
 */
import { ddb, type QueryCommandInput, type TransactWriteCommandInput } from '../lib/clients/dynamodb';
import { config } from '../lib/env';

/** The single table (from configuration: DynamoDB Local locally, the stack's table in AWS). */
export const table = (): string => config().tableName;

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** DynamoDB's limit on the items of one TransactWriteItems. */
export const MAX_TRANSACT_ITEMS = 100;

/** A page of a limited queryAll reads at most this many items, so no page reads far past the limit. */
const QUERY_PAGE = 100;

/** Which of a cancelled transaction's items failed their condition (none for any other error). */
export function failedConditions(err: unknown): number[] {
  const e = err as { name?: string; CancellationReasons?: { Code?: string }[] };
  if (e?.name !== 'TransactionCanceledException') return [];
  return (e.CancellationReasons ?? []).flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : []));
}

/**
 * Whether a write failed its condition: a ConditionalCheckFailedException, or a cancelled
 * transaction whose reasons name a failed condition (a transaction cancelled only by a conflict is not).
 */
export function isConditionFailure(err: unknown): boolean {
  return (err as { name?: string })?.name === 'ConditionalCheckFailedException' || failedConditions(err).length > 0;
}

/**
 * A cancelled transaction, for whatever reason: for a claim whose racing twin (a conflict, not
 * yet a failed condition) means the same as a failed one.
 */
export function isTransactionCancelled(err: unknown): boolean {
  return (err as { name?: string })?.name === 'TransactionCanceledException';
}

/**
 * Runs one conditional write (put, update, delete or transaction): true once written, false
 * when it lost (`lost`: its condition failed, by default); any other error is thrown.
 */
export async function conditionalWrite(
  write: () => Promise<unknown>,
  lost: (err: unknown) => boolean = isConditionFailure,
): Promise<boolean> {
  try {
    await write();
    return true;
  } catch (err) {
    if (lost(err)) return false;
    throw err;
  }
}

/**
 * Runs one conditional UpdateItem (or PutItem) with ReturnValues: the attributes it returned
 * (empty when it asked for none), or null when its condition failed; any other error is thrown.
 */
export async function conditionalUpdate(
  write: () => Promise<{ Attributes?: Record<string, unknown> }>,
): Promise<Record<string, unknown> | null> {
  try {
    const out = await write();
    return out.Attributes ?? {};
  } catch (err) {
    if (isConditionFailure(err)) return null;
    throw err;
  }
}

/**
 * Every item of a query, page after page; with `limit`, at most that many (read in pages of up
 * to 100, so no page reads past the limit).
 */
export async function queryAll(
  input: Omit<QueryCommandInput, 'TableName'>,
  limit?: number,
): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = limit === undefined ? {} : { Limit: Math.min(QUERY_PAGE, limit - items.length) };
    const out = await ddb().query({ TableName: table(), ...input, ...page, ExclusiveStartKey });
    items.push(...(out.Items ?? []));
    ExclusiveStartKey = out.LastEvaluatedKey;
  } while (ExclusiveStartKey && (limit === undefined || items.length < limit));
  return items;
}

/** The defined items of a transaction, checked against DynamoDB's limit before anything is sent. */
function transactItems(items: readonly (TransactItem | undefined)[]): TransactItem[] {
  const defined = items.filter((i): i is TransactItem => i !== undefined);
  if (defined.length === 0 || defined.length > MAX_TRANSACT_ITEMS) {
    throw new RangeError(`transact: ${defined.length} items; one transaction holds 1 to ${MAX_TRANSACT_ITEMS}`);
  }
  return defined;
}

/**
 * One TransactWriteItems of the defined items (an absent optional item is passed as undefined);
 * false when one of its conditions failed (or `lost` says it lost). More than DynamoDB's 100
 * items, or none, is a bug in the caller and throws before anything is sent.
 */
export async function transact(
  items: readonly (TransactItem | undefined)[],
  lost: (err: unknown) => boolean = isConditionFailure,
): Promise<boolean> {
  const TransactItems = transactItems(items);
  return conditionalWrite(() => ddb().transactWrite({ TransactItems }), lost);
}

/**
 * One TransactWriteItems whose refusals the caller names, item by item: null once written, else
 * `refusals[i]` for the first item `i` (in item order) whose condition failed and that has one.
 * A failed condition without a name, a conflict or any other error is thrown.
 */
export async function transactOr<R>(
  items: readonly TransactItem[],
  refusals: readonly (R | undefined)[],
): Promise<R | null> {
  const TransactItems = transactItems(items);
  try {
    await ddb().transactWrite({ TransactItems });
    return null;
  } catch (err) {
    for (const i of failedConditions(err)) {
      const refusal = refusals[i];
      if (refusal !== undefined) return refusal;
    }
    throw err;
  }
}

/**
 * A user's claim of a unique name (a CDN host, a sender domain) in one transaction: the name's
 * item, only while no one holds the name, and the user's own item, only while the user has none.
 * `taken` or `already_set` says which of the two was refused; null once both are written.
 */
export function claimUnique(
  nameItem: Record<string, unknown>,
  userItem: Record<string, unknown>,
): Promise<'taken' | 'already_set' | null> {
  const put = (Item: Record<string, unknown>): TransactItem => ({
    Put: { TableName: table(), Item, ConditionExpression: 'attribute_not_exists(pk)' },
  });
  return transactOr([put(nameItem), put(userItem)], ['taken', 'already_set'] as const);
}

/** How many items a Query matches, over every page (`Select: 'COUNT'`: no items are read back). */
export async function countAll(
  input: Omit<QueryCommandInput, 'TableName' | 'Select' | 'ExclusiveStartKey'>,
): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await ddb().query({ TableName: table(), ...input, Select: 'COUNT', ExclusiveStartKey: start });
    count += out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  return count;
}
