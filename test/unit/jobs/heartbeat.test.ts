/** The heartbeat job (functions/jobs/heartbeat.ts) with the table's client mocked. */
import { beforeEach, describe, expect, it } from 'vitest';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddbMock, TABLE, throttled, useUnitEnv } from '../../helpers/aws-mock';
import { keys } from '../../../functions/data/keys';
import { handler } from '../../../functions/jobs/heartbeat';

useUnitEnv();

const event = { 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} } as never;

beforeEach(() => ddbMock.reset());

describe('heartbeat job', () => {
  it('records its run with one atomic update (runs counted by ADD) and returns the count the table answers', async () => {
    ddbMock.on(UpdateCommand).resolves({ Attributes: { runs: 42, lastRunAt: 1_700_000_000_000 } });
    const before = Date.now();
    expect(await handler(event)).toEqual({ runs: 42 });
    const calls = ddbMock.commandCalls(UpdateCommand);
    expect(calls).toHaveLength(1);
    const input = calls[0]!.args[0].input;
    expect(input).toMatchObject({
      TableName: TABLE,
      Key: keys.jobRun('heartbeat'),
      UpdateExpression: 'SET entity = :e, jobName = :n, lastRunAt = :t ADD runs :one',
      ReturnValues: 'ALL_NEW',
    });
    expect(input.ExpressionAttributeValues).toMatchObject({ ':n': 'heartbeat', ':one': 1 });
    expect(input.ExpressionAttributeValues![':t']).toBeGreaterThanOrEqual(before);
  });

  it('a throttled table fails the invocation (the scheduler retries it), never reports a run it did not record', async () => {
    ddbMock.on(UpdateCommand).rejects(throttled());
    await expect(handler(event)).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException' });
    expect(ddbMock.commandCalls(UpdateCommand)).toHaveLength(1);
  });
});
