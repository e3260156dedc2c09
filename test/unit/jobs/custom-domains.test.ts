/**
 * The custom domains job (functions/jobs/custom-domains.ts) with the table's client mocked; its
 * DNS questions go to the local DNS server (scripts/local/dns-server.ts) on a free port.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { ddbMock, TABLE, throttled, transactionCancelled, useUnitEnv } from '../../helpers/aws-mock';
import { startDnsServer, type LocalDnsServer } from '../../../scripts/local/dns-server';
import { keys } from '../../../functions/data/keys';
import { ENV } from '../../../functions/lib/env-names';
import { ownershipRecordName, ownershipRecordValue } from '../../../functions/domain/custom-domains';
import { handler } from '../../../functions/jobs/custom-domains';

// In AWS the job has neither the tenant grant nor an emulator: it checks DNS and leaves tenants to their job.
useUnitEnv({ [ENV.customDomainTarget]: 'edge.sendbridge.test' });
delete process.env[ENV.dynamodbEndpoint];

const event = { 'detail-type': 'Scheduled Event', source: 'aws.events', detail: {} } as never;
const HOST = 'files.acme.test';
const TOKEN = 'tok0123456789abcdef0123456789abc';
let dns: LocalDnsServer;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'sb-dns-job-'));
  dns = await startDnsServer({ port: 0, recordsFile: path.join(dir, 'records.json') });
  process.env[ENV.dnsResolver] = dns.address;
  dns.add({ name: HOST, type: 'CNAME', value: 'edge.sendbridge.test.' });
  dns.add({ name: ownershipRecordName(HOST), type: 'TXT', value: ownershipRecordValue(TOKEN) });
});

afterAll(async () => {
  await dns?.close();
  rmSync(dir, { recursive: true, force: true });
});

const claim = (over: Record<string, unknown> = {}) => ({
  ...keys.userCustomDomain('u1'),
  host: HOST,
  token: TOKEN,
  status: 'pending',
  problems: [],
  createdAt: Date.now() - 3_600_000,
  failedChecks: 2,
  ...over,
});

beforeEach(() => {
  ddbMock.reset();
  ddbMock.on(QueryCommand).resolves({ Items: [] });
  ddbMock
    .on(QueryCommand, { IndexName: 'gsi2', ExpressionAttributeValues: { ':p': keys.domainCheckPartition } as never })
    .resolves({ Items: [{ host: HOST, userId: 'u1' }] });
  ddbMock.on(UpdateCommand).resolves({ Attributes: { runs: 1, lastRunAt: 1 } });
});

describe('custom domains job', () => {
  it('checks a due claim against DNS, stores it verified on both sides with its tenant queued, and records the run', async () => {
    ddbMock
      .on(GetCommand, { Key: keys.userCustomDomain('u1') })
      .resolvesOnce({ Item: claim() })
      .resolves({ Item: claim({ status: 'verified' }) });
    ddbMock.on(TransactWriteCommand).resolves({});

    expect(await handler(event)).toEqual({
      checked: 1,
      verified: 1,
      tenantsCreated: 0,
      tenantsDeleted: 0,
      bucketsCorsUpdated: 0,
    });

    const due = ddbMock.commandCalls(QueryCommand)[0]!.args[0].input;
    expect(due).toMatchObject({
      TableName: TABLE,
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :p AND gsi2sk <= :upTo',
      Limit: 50,
    });
    const items = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems!;
    // the claim leaves the check queue, the user's side is cleared of problems, the profile option and the tenant follow
    expect(items[0]!.Update).toMatchObject({
      Key: keys.customDomain(HOST),
      ConditionExpression: 'userId = :u',
      ExpressionAttributeValues: { ':s': 'verified', ':u': 'u1' },
    });
    expect(items[0]!.Update!.UpdateExpression).toContain('REMOVE gsi2pk, gsi2sk');
    expect(items[1]!.Update).toMatchObject({
      Key: keys.userCustomDomain('u1'),
      ConditionExpression: 'host = :h',
      ExpressionAttributeValues: { ':s': 'verified', ':p': [], ':f': 0, ':h': HOST },
    });
    expect(items.at(-1)!.Put!.Item).toMatchObject({
      ...keys.domainTenant(HOST),
      host: HOST,
      want: 'present',
      gsi2pk: keys.tenantSyncPartition,
    });
    // no tenant provider in AWS for this job: it never reads the tenant queue
    expect(
      ddbMock
        .commandCalls(QueryCommand)
        .some(
          (c) =>
            (c.args[0].input.ExpressionAttributeValues as Record<string, unknown>)[':p'] === keys.tenantSyncPartition,
        ),
    ).toBe(false);
    expect(ddbMock.commandCalls(UpdateCommand).map((c) => c.args[0].input.Key)).toEqual([
      keys.jobRun('custom-domains'),
    ]);
  });

  it('a claim released while it was checked (cancelled transaction) is not counted verified; the job goes on', async () => {
    ddbMock
      .on(GetCommand, { Key: keys.userCustomDomain('u1') })
      .resolvesOnce({ Item: claim() })
      .resolves({});
    ddbMock.on(TransactWriteCommand).rejects(transactionCancelled(['ConditionalCheckFailed', 'ok', 'ok', 'ok']));
    expect(await handler(event)).toMatchObject({ checked: 1, verified: 0 });
    expect(ddbMock.commandCalls(UpdateCommand).map((c) => c.args[0].input.Key)).toEqual([
      keys.jobRun('custom-domains'),
    ]);
  });

  it('a throttled write fails the run before it is recorded: the claim stays queued where it was, for the next run', async () => {
    ddbMock.on(GetCommand, { Key: keys.userCustomDomain('u1') }).resolves({ Item: claim() });
    ddbMock.on(TransactWriteCommand).rejects(throttled());
    await expect(handler(event)).rejects.toMatchObject({ name: 'ProvisionedThroughputExceededException' });
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(1);
    expect(ddbMock.commandCalls(UpdateCommand)).toHaveLength(0);
  });
});
