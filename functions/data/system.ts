import { randomUUID } from 'node:crypto';
import { ddb } from '../lib/clients/dynamodb';
import { table } from './base';
import { isLive, keys, ttlIn } from './keys';

/** Writes, reads back and deletes a short-lived probe item; throws if the round trip fails. */
export async function roundTripProbe(): Promise<void> {
  const probeId = randomUUID();
  const key = keys.healthProbe(probeId);
  await ddb().put({
    TableName: table(),
    Item: { ...key, entity: 'HealthProbe', probeId, ttl: ttlIn(300) },
    ConditionExpression: 'attribute_not_exists(pk)',
  });
  const read = await ddb().get({ TableName: table(), Key: key, ConsistentRead: true });
  if (read.Item?.probeId !== probeId) throw new Error('probe item did not read back');
  await ddb().delete({ TableName: table(), Key: key });
}

export interface JobRun {
  readonly jobName: string;
  readonly lastRunAt: number;
  readonly runs: number;
}

/** Records that a scheduled job ran (counts runs atomically). */
export async function recordJobRun(jobName: string, at = Date.now()): Promise<JobRun> {
  const out = await ddb().update({
    TableName: table(),
    Key: keys.jobRun(jobName),
    UpdateExpression: 'SET entity = :e, jobName = :n, lastRunAt = :t ADD runs :one',
    ExpressionAttributeValues: { ':e': 'JobRun', ':n': jobName, ':t': at, ':one': 1 },
    ReturnValues: 'ALL_NEW',
  });
  const item = out.Attributes ?? {};
  return { jobName, lastRunAt: Number(item.lastRunAt), runs: Number(item.runs) };
}

export async function getJobRun(jobName: string): Promise<JobRun | undefined> {
  const out = await ddb().get({ TableName: table(), Key: keys.jobRun(jobName) });
  if (!isLive(out.Item) || !out.Item) return undefined;
  return { jobName, lastRunAt: Number(out.Item.lastRunAt), runs: Number(out.Item.runs) };
}
