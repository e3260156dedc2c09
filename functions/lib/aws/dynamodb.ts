/**
 * DynamoDB with the document client's semantics (@aws-sdk/lib-dynamodb, whose types these
 * are): plain JS values in and out, undefined values removed, class instances refused, numbers
 * as JS numbers. Marshalling by @aws-sdk/util-dynamodb, the same code lib-dynamodb runs, applied
 * to the same members of each operation; the wire is AWS JSON 1.0 (core.ts).
 */
import { marshall, unmarshall, type NativeAttributeValue } from '@aws-sdk/util-dynamodb';
import type {
  BatchGetCommandInput,
  BatchGetCommandOutput,
  BatchWriteCommandInput,
  BatchWriteCommandOutput,
  DeleteCommandInput,
  DeleteCommandOutput,
  GetCommandInput,
  GetCommandOutput,
  PutCommandInput,
  PutCommandOutput,
  QueryCommandInput,
  QueryCommandOutput,
  TransactWriteCommandInput,
  TransactWriteCommandOutput,
  UpdateCommandInput,
  UpdateCommandOutput,
} from '@aws-sdk/lib-dynamodb';
import { config } from '../env';
import { jsonRpc, serviceEndpoint } from './core';

export type {
  BatchGetCommandInput,
  BatchWriteCommandInput,
  DeleteCommandInput,
  GetCommandInput,
  PutCommandInput,
  QueryCommandInput,
  TransactWriteCommandInput,
  UpdateCommandInput,
};

/** Outputs as the SDK types them, without the SDK's response metadata. */
type Out<T> = Omit<T, '$metadata'>;
type Attrs = Record<string, NativeAttributeValue>;
type Wire = Record<string, unknown>;

/** lib-dynamodb's options as functions/ configured them (removeUndefinedValues, no class-instance conversion). */
const MARSHALL_OPTIONS = { removeUndefinedValues: true, convertClassInstanceToMap: false, convertTopLevelContainer: true } as const;
const UNMARSHALL_OPTIONS = { convertWithoutMapWrapper: true } as const;

/** Each attribute marshalled on its own, as lib-dynamodb does (undefined and functions skipped). */
export function toAttributeMap(values: Attrs | undefined): Wire | undefined {
  if (values === undefined) return undefined;
  const out: Wire = {};
  for (const [k, v] of Object.entries(values)) {
    if (v === undefined || typeof v === 'function') continue;
    out[k] = marshall(v, MARSHALL_OPTIONS);
  }
  return out;
}

export function fromAttributeMap(values: Wire | undefined): Attrs | undefined {
  if (values === undefined) return undefined;
  const out: Attrs = {};
  for (const [k, v] of Object.entries(values)) out[k] = unmarshall(v as Parameters<typeof unmarshall>[0], UNMARSHALL_OPTIONS);
  return out;
}

const mapList = <T, U>(list: readonly T[] | undefined, f: (x: T) => U): U[] | undefined => list?.map(f);

function mapValues<T, U>(obj: Record<string, T> | undefined, f: (x: T) => U): Record<string, U> | undefined {
  if (obj === undefined) return undefined;
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, f(v)]));
}

/** Copies `input` with the named members converted (undefined members left out). */
function withMembers<T extends object>(input: T, members: { [K in keyof T]?: (v: NonNullable<T[K]>) => unknown }): Wire {
  const out: Wire = { ...(input as Wire) };
  for (const [k, f] of Object.entries(members) as [string, (v: unknown) => unknown][]) {
    const v = (input as Wire)[k];
    if (v === undefined) delete out[k];
    else out[k] = f(v);
  }
  return out;
}

type WriteRequest = { PutRequest?: { Item?: Attrs }; DeleteRequest?: { Key?: Attrs } };

const writeRequestTo = (r: WriteRequest): Wire => ({
  ...r,
  ...(r.PutRequest ? { PutRequest: { ...r.PutRequest, Item: toAttributeMap(r.PutRequest.Item) } } : {}),
  ...(r.DeleteRequest ? { DeleteRequest: { ...r.DeleteRequest, Key: toAttributeMap(r.DeleteRequest.Key) } } : {}),
});

const writeRequestFrom = (r: { PutRequest?: { Item?: Wire }; DeleteRequest?: { Key?: Wire } }) => ({
  ...r,
  ...(r.PutRequest ? { PutRequest: { ...r.PutRequest, Item: fromAttributeMap(r.PutRequest.Item) } } : {}),
  ...(r.DeleteRequest ? { DeleteRequest: { ...r.DeleteRequest, Key: fromAttributeMap(r.DeleteRequest.Key) } } : {}),
});

/** The B and BS members arrive as base64 in JSON; as bytes, like the SDK's. */
function bytesReviver(key: string, value: unknown): unknown {
  if (key === 'B' && typeof value === 'string') return new Uint8Array(Buffer.from(value, 'base64'));
  if (key === 'BS' && Array.isArray(value)) return value.map((v) => (typeof v === 'string' ? new Uint8Array(Buffer.from(v, 'base64')) : v));
  return value;
}

type ExpressionInput = { Key?: Attrs; Item?: Attrs; ExpressionAttributeValues?: Attrs };
const expressionMembers = { Key: toAttributeMap, Item: toAttributeMap, ExpressionAttributeValues: toAttributeMap } as const;

export interface DynamoDb {
  get(input: GetCommandInput): Promise<Out<GetCommandOutput>>;
  put(input: PutCommandInput): Promise<Out<PutCommandOutput>>;
  update(input: UpdateCommandInput): Promise<Out<UpdateCommandOutput>>;
  delete(input: DeleteCommandInput): Promise<Out<DeleteCommandOutput>>;
  query(input: QueryCommandInput): Promise<Out<QueryCommandOutput>>;
  transactWrite(input: TransactWriteCommandInput): Promise<Out<TransactWriteCommandOutput>>;
  batchWrite(input: BatchWriteCommandInput): Promise<Out<BatchWriteCommandOutput>>;
  batchGet(input: BatchGetCommandInput): Promise<Out<BatchGetCommandOutput>>;
}

export function createDynamoDb(opts: { region: string; endpoint?: string | undefined }): DynamoDb {
  const target = {
    service: 'dynamodb',
    region: opts.region,
    endpoint: serviceEndpoint('dynamodb', opts.region, opts.endpoint),
    targetPrefix: 'DynamoDB_20120810',
    jsonVersion: '1.0',
  } as const;
  const call = (operation: string, input: Wire) => jsonRpc<Wire>(target, operation, input, bytesReviver);
  const attributesOut = (out: Wire) => ({ ...out, ...(out.Attributes ? { Attributes: fromAttributeMap(out.Attributes as Wire) } : {}) });

  return {
    async get(input) {
      const out = await call('GetItem', withMembers(input, { Key: toAttributeMap }));
      return { ...out, Item: fromAttributeMap(out.Item as Wire | undefined) };
    },
    async put(input) {
      return attributesOut(await call('PutItem', withMembers(input, { Item: toAttributeMap, ExpressionAttributeValues: toAttributeMap })));
    },
    async update(input) {
      return attributesOut(await call('UpdateItem', withMembers(input, { Key: toAttributeMap, ExpressionAttributeValues: toAttributeMap })));
    },
    async delete(input) {
      return attributesOut(await call('DeleteItem', withMembers(input, { Key: toAttributeMap, ExpressionAttributeValues: toAttributeMap })));
    },
    async query(input) {
      const out = await call('Query', withMembers(input, { ExclusiveStartKey: toAttributeMap, ExpressionAttributeValues: toAttributeMap }));
      return {
        ...out,
        Items: mapList(out.Items as Wire[] | undefined, (i) => fromAttributeMap(i)!),
        LastEvaluatedKey: fromAttributeMap(out.LastEvaluatedKey as Wire | undefined),
      };
    },
    async transactWrite(input) {
      const TransactItems = input.TransactItems?.map((item) =>
        Object.fromEntries(Object.entries(item).map(([kind, op]) => [kind, op ? withMembers(op as ExpressionInput, expressionMembers) : op])),
      );
      return call('TransactWriteItems', { ...input, ...(TransactItems ? { TransactItems } : {}) });
    },
    async batchWrite(input) {
      const out = await call('BatchWriteItem', {
        ...input,
        RequestItems: mapValues(input.RequestItems as Record<string, WriteRequest[]> | undefined, (reqs) => reqs.map(writeRequestTo)),
      });
      return {
        ...out,
        UnprocessedItems: mapValues(out.UnprocessedItems as Record<string, Wire[]> | undefined, (reqs) => reqs.map(writeRequestFrom)),
      } as Out<BatchWriteCommandOutput>;
    },
    async batchGet(input) {
      const out = await call('BatchGetItem', {
        ...input,
        RequestItems: mapValues(input.RequestItems, (r) => ({ ...r, Keys: mapList(r.Keys, (k) => toAttributeMap(k)!) })),
      });
      return {
        ...out,
        Responses: mapValues(out.Responses as Record<string, Wire[]> | undefined, (items) => items.map((i) => fromAttributeMap(i)!)),
        UnprocessedKeys: mapValues(out.UnprocessedKeys as Record<string, { Keys?: Wire[] }> | undefined, (r) => ({
          ...r,
          Keys: mapList(r.Keys, (k) => fromAttributeMap(k)!),
        })),
      } as Out<BatchGetCommandOutput>;
    },
  };
}

let client: DynamoDb | undefined;

/** The table's client, one per process, created on first use (conventions §5). */
export function ddb(): DynamoDb {
  if (!client) {
    const c = config();
    client = createDynamoDb({ region: c.awsRegion, endpoint: c.endpoints.dynamodb });
  }
  return client;
}

/** Which of a cancelled transaction's items failed their condition (none for any other error). */
export function failedConditions(err: unknown): number[] {
  const e = err as { name?: string; CancellationReasons?: { Code?: string }[] };
  if (e?.name !== 'TransactionCanceledException') return [];
  return (e.CancellationReasons ?? []).flatMap((r, i) => (r.Code === 'ConditionalCheckFailed' ? [i] : []));
}

/** How many items a Query matches, over every page (`Select: 'COUNT'`: no items are read back). */
export async function countAll(input: Omit<QueryCommandInput, 'Select' | 'ExclusiveStartKey'>): Promise<number> {
  let count = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const out = await ddb().query({ ...input, Select: 'COUNT', ExclusiveStartKey: start });
    count += out.Count ?? 0;
    start = out.LastEvaluatedKey;
  } while (start);
  return count;
}
