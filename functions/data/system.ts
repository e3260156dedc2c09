import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../lib/clients';
import { config } from '../lib/env';
import { isLive, keys, ttlIn } from './keys';

/** Writes, reads back and deletes a short-lived probe item; throws if the round trip fails. */
export async function roundTripProbe(): Promise<void> {
  const probeId = randomUUID();
  const key = keys.healthProbe(probeId);
  const { tableName } = config();
  await dynamo().send(
    new PutCommand({
      TableName: tableName,
      Item: { ...key, entity: 'HealthProbe', probeId, ttl: ttlIn(300) },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  const read = await dynamo().send(new GetCommand({ TableName: tableName, Key: key, ConsistentRead: true }));
  if (read.Item?.probeId !== probeId) throw new Error('probe item did not read back');
  await dynamo().send(new DeleteCommand({ TableName: tableName, Key: key }));
}

export interface JobRun {
  readonly jobName: string;
  readonly lastRunAt: number;
  readonly runs: number;
}

/** Records that a scheduled job ran (counts runs atomically). */
export async function recordJobRun(jobName: string, at = Date.now()): Promise<JobRun> {
  const out = await dynamo().send(
    new UpdateCommand({
      TableName: config().tableName,
      Key: keys.jobRun(jobName),
      UpdateExpression: 'SET entity = :e, jobName = :n, lastRunAt = :t ADD runs :one',
      ExpressionAttributeValues: { ':e': 'JobRun', ':n': jobName, ':t': at, ':one': 1 },
      ReturnValues: 'ALL_NEW',
    }),
  );
  const item = out.Attributes ?? {};
  return { jobName, lastRunAt: Number(item.lastRunAt), runs: Number(item.runs) };
}

export async function getJobRun(jobName: string): Promise<JobRun | undefined> {
  const out = await dynamo().send(new GetCommand({ TableName: config().tableName, Key: keys.jobRun(jobName) }));
  if (!isLive(out.Item) || !out.Item) return undefined;
  return { jobName, lastRunAt: Number(out.Item.lastRunAt), runs: Number(out.Item.runs) };
}
