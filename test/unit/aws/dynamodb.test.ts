/**
 * The DynamoDB layer's document-client semantics at the wire (fetch stubbed): what JSON goes to
 * DynamoDB for plain JS values, what comes back out, and the error names and members the data
 * modules test (functions/data/transfers.ts isConditionFailure and friends). DynamoDB Local
 * round trips, with items seeded and read by the SDK, are in test/integration.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createDynamoDb } from '../../../functions/lib/aws/dynamodb';
import { isConditionFailure } from '../../../functions/data/transfers';
import { jsonError, jsonResponse, stubFetch, type SentRequest } from '../../helpers/fetch-stub';

let calls: SentRequest[];
let restore: () => void;
let answer: (req: SentRequest) => Response;
const ddb = createDynamoDb({ region: 'ap-east-1' });

beforeEach(() => {
  process.env.AWS_ACCESS_KEY_ID = 'unit';
  process.env.AWS_SECRET_ACCESS_KEY = 'unit';
  answer = () => jsonResponse({});
  ({ calls, restore } = stubFetch((req) => answer(req)));
});

afterEach(() => restore());

const item = {
  pk: 'T#Ab3dE5g',
  sk: 'META',
  size: 1234567890123,
  ratio: 0.25,
  negative: -3,
  done: false,
  nothing: null,
  gone: undefined,
  tags: ['a', 1, true, null, { deep: 'x', skipped: undefined }],
  emails: new Set(['a@example.com', 'b@example.com']),
  counts: new Set([1, 2]),
  bytes: new Uint8Array([0, 1, 254, 255]),
  nested: { name: 'Ünïcødé 日本語', empty: '', list: [], map: {} },
};

const wire = {
  pk: { S: 'T#Ab3dE5g' },
  sk: { S: 'META' },
  size: { N: '1234567890123' },
  ratio: { N: '0.25' },
  negative: { N: '-3' },
  done: { BOOL: false },
  nothing: { NULL: true },
  tags: { L: [{ S: 'a' }, { N: '1' }, { BOOL: true }, { NULL: true }, { M: { deep: { S: 'x' } } }] },
  emails: { SS: ['a@example.com', 'b@example.com'] },
  counts: { NS: ['1', '2'] },
  bytes: { B: 'AAH+/w==' },
  nested: { M: { name: { S: 'Ünïcødé 日本語' }, empty: { S: '' }, list: { L: [] }, map: { M: {} } } },
};

describe('marshalling (lib-dynamodb semantics)', () => {
  it('sends plain values as DynamoDB JSON, undefined removed, bytes as base64', async () => {
    await ddb.put({ TableName: 't', Item: item, ConditionExpression: 'attribute_not_exists(pk) OR #s < :s', ExpressionAttributeNames: { '#s': 'size' }, ExpressionAttributeValues: { ':s': 5 } });
    const [req] = calls;
    expect(req!.url.href).toBe('https://dynamodb.ap-east-1.amazonaws.com/');
    expect(req!.headers.get('x-amz-target')).toBe('DynamoDB_20120810.PutItem');
    expect(req!.headers.get('content-type')).toBe('application/x-amz-json-1.0');
    expect(req!.json()).toEqual({
      TableName: 't',
      Item: wire,
      ConditionExpression: 'attribute_not_exists(pk) OR #s < :s',
      ExpressionAttributeNames: { '#s': 'size' },
      ExpressionAttributeValues: { ':s': { N: '5' } },
    });
  });

  it('reads DynamoDB JSON back into the same values (numbers as numbers, sets as Sets, bytes as Uint8Array)', async () => {
    answer = () => jsonResponse({ Item: wire });
    const out = await ddb.get({ TableName: 't', Key: { pk: 'T#Ab3dE5g', sk: 'META' }, ConsistentRead: true });
    expect(calls[0]!.json()).toEqual({ TableName: 't', Key: { pk: { S: 'T#Ab3dE5g' }, sk: { S: 'META' } }, ConsistentRead: true });
    const { gone: _gone, ...expected } = item;
    expect(out.Item).toEqual({ ...expected, tags: ['a', 1, true, null, { deep: 'x' }] });
    expect(out.Item!.bytes).toBeInstanceOf(Uint8Array);
  });

  it('answers no Item for a missing key', async () => {
    answer = () => jsonResponse({});
    expect((await ddb.get({ TableName: 't', Key: { pk: 'x', sk: 'y' } })).Item).toBeUndefined();
  });

  it('refuses class instances, as lib-dynamodb without convertClassInstanceToMap does', async () => {
    await expect(ddb.put({ TableName: 't', Item: { pk: 'x', when: new Date(0) } })).rejects.toThrow(/convertClassInstanceToMap/u);
    expect(calls).toHaveLength(0);
  });

  it('marshals and unmarshals the members of Query, Update, TransactWrite, BatchWrite and BatchGet', async () => {
    answer = (req) => {
      switch (req.target) {
        case 'Query':
          return jsonResponse({ Items: [{ pk: { S: 'a' }, n: { N: '1' } }], Count: 1, LastEvaluatedKey: { pk: { S: 'a' }, sk: { S: 'b' } } });
        case 'UpdateItem':
          return jsonResponse({ Attributes: { runs: { N: '8' } } });
        case 'BatchWriteItem':
          return jsonResponse({ UnprocessedItems: { t: [{ DeleteRequest: { Key: { pk: { S: 'd' } } } }] } });
        case 'BatchGetItem':
          return jsonResponse({ Responses: { t: [{ pk: { S: 'g' }, v: { N: '2' } }] }, UnprocessedKeys: { t: { Keys: [{ pk: { S: 'h' } }] } } });
        default:
          return jsonResponse({});
      }
    };
    const q = await ddb.query({ TableName: 't', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': 'a' }, ExclusiveStartKey: { pk: 'a', sk: 'a' }, Limit: 1 });
    expect(q).toMatchObject({ Items: [{ pk: 'a', n: 1 }], Count: 1, LastEvaluatedKey: { pk: 'a', sk: 'b' } });
    expect(calls.at(-1)!.json()).toMatchObject({ ExpressionAttributeValues: { ':p': { S: 'a' } }, ExclusiveStartKey: { pk: { S: 'a' }, sk: { S: 'a' } }, Limit: 1 });

    const u = await ddb.update({ TableName: 't', Key: { pk: 'j' }, UpdateExpression: 'ADD runs :one', ExpressionAttributeValues: { ':one': 1 }, ReturnValues: 'UPDATED_NEW' });
    expect(u.Attributes).toEqual({ runs: 8 });

    await ddb.transactWrite({
      TransactItems: [
        { Put: { TableName: 't', Item: { pk: 'p', v: 1 }, ConditionExpression: 'attribute_not_exists(pk)' } },
        { Update: { TableName: 't', Key: { pk: 'u' }, UpdateExpression: 'SET v = :v', ExpressionAttributeValues: { ':v': 'x' } } },
        { Delete: { TableName: 't', Key: { pk: 'd' } } },
        { ConditionCheck: { TableName: 't', Key: { pk: 'c' }, ConditionExpression: 'v < :max', ExpressionAttributeValues: { ':max': 3 } } },
      ],
    });
    expect(calls.at(-1)!.json()).toEqual({
      TransactItems: [
        { Put: { TableName: 't', Item: { pk: { S: 'p' }, v: { N: '1' } }, ConditionExpression: 'attribute_not_exists(pk)' } },
        { Update: { TableName: 't', Key: { pk: { S: 'u' } }, UpdateExpression: 'SET v = :v', ExpressionAttributeValues: { ':v': { S: 'x' } } } },
        { Delete: { TableName: 't', Key: { pk: { S: 'd' } } } },
        { ConditionCheck: { TableName: 't', Key: { pk: { S: 'c' } }, ConditionExpression: 'v < :max', ExpressionAttributeValues: { ':max': { N: '3' } } } },
      ],
    });

    const w = await ddb.batchWrite({ RequestItems: { t: [{ PutRequest: { Item: { pk: 'n', v: true } } }, { DeleteRequest: { Key: { pk: 'd' } } }] } });
    expect(calls.at(-1)!.json()).toEqual({ RequestItems: { t: [{ PutRequest: { Item: { pk: { S: 'n' }, v: { BOOL: true } } } }, { DeleteRequest: { Key: { pk: { S: 'd' } } } }] } });
    expect(w.UnprocessedItems).toEqual({ t: [{ DeleteRequest: { Key: { pk: 'd' } } }] });

    const g = await ddb.batchGet({ RequestItems: { t: { Keys: [{ pk: 'g' }, { pk: 'h' }], ConsistentRead: true } } });
    expect(calls.at(-1)!.json()).toEqual({ RequestItems: { t: { Keys: [{ pk: { S: 'g' } }, { pk: { S: 'h' } }], ConsistentRead: true } } });
    expect(g.Responses).toEqual({ t: [{ pk: 'g', v: 2 }] });
    expect(g.UnprocessedKeys).toEqual({ t: { Keys: [{ pk: 'h' }] } });
  });
});

describe('errors', () => {
  it('names a failed condition ConditionalCheckFailedException, with the status, and is not retried', async () => {
    answer = () => jsonError(400, 'com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException', 'The conditional request failed');
    const err = await ddb.put({ TableName: 't', Item: { pk: 'x' }, ConditionExpression: 'attribute_not_exists(pk)' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(err).toMatchObject({ name: 'ConditionalCheckFailedException', message: 'The conditional request failed', $metadata: { httpStatusCode: 400 } });
    expect(isConditionFailure(err)).toBe(true);
    expect(calls).toHaveLength(1);
  });

  it('copies a cancelled transaction CancellationReasons', async () => {
    answer = () =>
      jsonError(400, 'com.amazonaws.dynamodb.v20120810#TransactionCanceledException', 'Transaction cancelled, please refer cancellation reasons for specific reasons [None, ConditionalCheckFailed]', {
        CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed', Message: 'The conditional request failed' }],
      });
    const err = await ddb.transactWrite({ TransactItems: [] }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'TransactionCanceledException', CancellationReasons: [{ Code: 'None' }, { Code: 'ConditionalCheckFailed' }] });
    expect(isConditionFailure(err)).toBe(true);
  });

  it('retries throttling (400 ProvisionedThroughputExceededException) up to three attempts', async () => {
    answer = () => jsonError(400, 'com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException', 'slow down');
    await expect(ddb.get({ TableName: 't', Key: { pk: 'x' } })).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException', $metadata: { attempts: 3 } });
    expect(calls).toHaveLength(3);
  });

  it('never retries a validation error', async () => {
    answer = () => jsonError(400, 'com.amazon.coral.validate#ValidationException', 'One or more parameter values were invalid');
    await expect(ddb.get({ TableName: 't', Key: { pk: 'x' } })).rejects.toMatchObject({ name: 'ValidationException' });
    expect(calls).toHaveLength(1);
  });
});
