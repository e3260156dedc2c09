/**
 * The table's client: the AWS SDK v3's DynamoDBDocument (lib-dynamodb) over one DynamoDBClient
 * per process, so data modules pass and get plain JS values. Created on first use (conventions
 * §5); the endpoint comes from configuration (DynamoDB Local locally, unset in AWS).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocument, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { config } from '../env';
import { REQUEST_HANDLER } from './timeouts';

export type {
  BatchGetCommandInput,
  BatchWriteCommandInput,
  DeleteCommandInput,
  GetCommandInput,
  PutCommandInput,
  QueryCommandInput,
  TransactWriteCommandInput,
  UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';

/** undefined members are dropped (optional fields of records), class instances are refused. */
const TRANSLATE = { marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false }, unmarshallOptions: { wrapNumbers: false } } as const;

let client: DynamoDBDocument | undefined;

export function ddb(): DynamoDBDocument {
  if (!client) {
    const c = config();
    client = DynamoDBDocument.from(new DynamoDBClient({ region: c.awsRegion, requestHandler: REQUEST_HANDLER, ...(c.endpoints.dynamodb ? { endpoint: c.endpoints.dynamodb } : {}) }), TRANSLATE);
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
