/** The scheduled jobs (functions/jobs/*) with the AWS clients mocked. */
import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { DeleteCommand, GetCommand, QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  CopyObjectCommand,
  DeleteObjectsCommand,
  GetBucketCorsCommand,
  ListObjectsV2Command,
  PutBucketCorsCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import {
  CloudFrontClient,
  CreateDistributionTenantCommand,
  DeleteDistributionTenantCommand,
  GetDistributionTenantCommand,
} from '@aws-sdk/client-cloudfront';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { conditionFailed, ddbMock, throttled, useUnitEnv } from '../../helpers/aws-mock';
import { lambdaContext } from '../../helpers/events';
import { keys } from '../../../functions/data/keys';
import { purgeAt } from '../../../functions/services/downloads';
import { handler as sweep } from '../../../functions/jobs/expiry-sweep';
import { handler as domainTenants } from '../../../functions/jobs/domain-tenants';
import { handler as forwardCopy } from '../../../functions/jobs/forward-copy';
import { serviceError } from '../../helpers/aws-mock';

useUnitEnv({ EVENT_BUS_NAME: 'unit-bus', TENANT_DISTRIBUTION_ID: 'EDIST', CONNECTION_GROUP_ID: 'cg-1' });

const s3Mock = mockClient(S3Client);
const busMock = mockClient(EventBridgeClient);
const cfMock = mockClient(CloudFrontClient);

beforeEach(() => {
  ddbMock.reset();
  s3Mock.reset();
  busMock.reset();
  cfMock.reset();
  ddbMock.on(GetCommand).resolves({});
  ddbMock.on(QueryCommand).resolves({ Items: [] });
  ddbMock.on(UpdateCommand).resolves({ Attributes: { runs: 1, lastRunAt: 1 } });
  s3Mock.on(ListObjectsV2Command).resolves({ Contents: [] });
  busMock.on(PutEventsCommand).resolves({ FailedEntryCount: 0, Entries: [{ EventId: 'e' }] });
});

const now = Date.now();
/** A run with minutes left (the sweep stops when under 15 s remain). */
const ctx = (ms = 600_000) => ({ ...lambdaContext(), getRemainingTimeInMillis: () => ms });
const item = (slug: string, over: Record<string, unknown>) => ({
  ...keys.transfer(slug),
  slug,
  region: 'hongkong',
  anon: false,
  senderId: 'u1',
  gsi3pk: 'LIST#u1#LIVE',
  totalDownloads: 0,
  ...over,
});

describe('expiry-sweep', () => {
  it('walks every page of the sweep index: expires a transfer at its expiry, purges one past its grace period, and records the run', async () => {
    const expiring = item('Exp0001', { status: 'ready', expiryDate: now - 1000, sweepDueAt: now - 1000 });
    const purging = item('Pur0001', { status: 'expired', expiryDate: now - 40 * 86_400_000, sweepDueAt: now - 1000 });
    ddbMock
      .on(QueryCommand, { IndexName: 'gsi2' })
      .resolvesOnce({ Items: [{ pk: 'TRANSFER#Exp0001' }], LastEvaluatedKey: { pk: 'TRANSFER#Exp0001' } })
      .resolvesOnce({ Items: [{ pk: 'TRANSFER#Pur0001' }] });
    ddbMock.on(GetCommand, { Key: keys.transfer('Exp0001') }).resolves({ Item: expiring });
    ddbMock.on(GetCommand, { Key: keys.transfer('Pur0001') }).resolves({ Item: purging });
    ddbMock.on(TransactWriteCommand).resolves({});
    s3Mock
      .on(ListObjectsV2Command, { Prefix: 't/Pur0001/' })
      .resolves({ Contents: [{ Key: 't/Pur0001/f1' }, { Key: 't/Pur0001/f2' }] });
    s3Mock.on(DeleteObjectsCommand).resolves({});

    const result = await sweep({} as never, ctx());
    expect(result).toEqual({ examined: 2, expired: 1, purged: 1, abandoned: 0, failed: 0, objectsDeleted: 2 });

    // expired: conditioned on the due time read, due again at the end of the grace period
    const expire = ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems![0]!.Update!;
    expect(expire.ExpressionAttributeValues).toMatchObject({
      ':expDue': now - 1000,
      ':due': purgeAt({ expiryDate: now - 1000, anon: false, createdAt: now - 8 * 86_400_000 }),
    });
    // the product event went on the bus
    expect(JSON.parse(busMock.commandCalls(PutEventsCommand)[0]!.args[0].input.Entries![0]!.Detail!)).toMatchObject({
      type: 'transfer.expired',
    });
    // purged: its objects deleted from its own bucket, then marked purged on the due time it read
    expect(s3Mock.commandCalls(DeleteObjectsCommand)[0]!.args[0].input).toEqual({
      Bucket: 'hk-transfers',
      Delete: { Objects: [{ Key: 't/Pur0001/f1' }, { Key: 't/Pur0001/f2' }], Quiet: true },
    });
    const purge = ddbMock
      .commandCalls(UpdateCommand)
      .find((c) => (c.args[0].input.Key as { pk?: string }).pk === 'TRANSFER#Pur0001')!.args[0].input;
    expect(purge).toMatchObject({ ExpressionAttributeValues: { ':p': true, ':expDue': now - 1000 } });
    expect(
      ddbMock
        .commandCalls(UpdateCommand)
        .some((c) => (c.args[0].input.Key as { sk?: string }).sk === keys.jobRun('expiry-sweep').sk),
    ).toBe(true);
  });

  it('a failing transfer (throttled read) is counted and the sweep goes on with the next one', async () => {
    ddbMock
      .on(QueryCommand, { IndexName: 'gsi2' })
      .resolves({ Items: [{ pk: 'TRANSFER#Bad0001' }, { pk: 'TRANSFER#Exp0001' }] });
    ddbMock.on(GetCommand, { Key: keys.transfer('Bad0001') }).rejects(throttled());
    ddbMock
      .on(GetCommand, { Key: keys.transfer('Exp0001') })
      .resolves({ Item: item('Exp0001', { status: 'ready', expiryDate: now - 1, sweepDueAt: now - 1 }) });
    ddbMock.on(TransactWriteCommand).resolves({});
    expect(await sweep({} as never, ctx())).toMatchObject({ examined: 2, failed: 1, expired: 1 });
  });

  it('an extension that won the race (failed condition) leaves the transfer as it is, without an event', async () => {
    ddbMock.on(QueryCommand, { IndexName: 'gsi2' }).resolves({ Items: [{ pk: 'TRANSFER#Exp0001' }] });
    ddbMock
      .on(GetCommand, { Key: keys.transfer('Exp0001') })
      .resolves({ Item: item('Exp0001', { status: 'ready', expiryDate: now - 1, sweepDueAt: now - 1 }) });
    ddbMock.on(TransactWriteCommand).rejects(conditionFailed());
    expect(await sweep({} as never, ctx())).toMatchObject({ examined: 1, expired: 0, failed: 0 });
    expect(busMock.commandCalls(PutEventsCommand)).toHaveLength(0);
  });

  it('an abandoned upload: its multipart uploads aborted, objects deleted, cancelled', async () => {
    ddbMock.on(QueryCommand, { IndexName: 'gsi2' }).resolves({ Items: [{ pk: 'TRANSFER#Upl0001' }] });
    ddbMock
      .on(GetCommand, { Key: keys.transfer('Upl0001') })
      .resolves({ Item: item('Upl0001', { status: 'uploading', expiryDate: now + 1, sweepDueAt: now - 1 }) });
    ddbMock
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'TRANSFER#Upl0001', ':p': keys.filePrefix } })
      .resolves({
        Items: [
          {
            slug: 'Upl0001',
            fileId: 'f1',
            key: 't/Upl0001/f1',
            status: 'pending',
            mode: 'multipart',
            uploadId: 'up-1',
            createdAt: 1,
          },
        ],
      });
    const { AbortMultipartUploadCommand } = await import('@aws-sdk/client-s3');
    s3Mock.on(AbortMultipartUploadCommand).resolves({});
    expect(await sweep({} as never, ctx())).toMatchObject({ abandoned: 1 });
    expect(s3Mock.commandCalls(AbortMultipartUploadCommand)[0]!.args[0].input).toEqual({
      Bucket: 'hk-transfers',
      Key: 't/Upl0001/f1',
      UploadId: 'up-1',
    });
    const cancel = ddbMock
      .commandCalls(UpdateCommand)
      .find((c) => (c.args[0].input.Key as { pk?: string }).pk === 'TRANSFER#Upl0001')!.args[0].input;
    expect(cancel.ExpressionAttributeValues).toMatchObject({ ':s': 'cancelled', ':f0': 'uploading' });
  });

  it('stops before a step when under 15 s of the invocation remain, leaving the rest for the next run', async () => {
    ddbMock.on(QueryCommand, { IndexName: 'gsi2' }).resolves({ Items: [{ pk: 'TRANSFER#Exp0001' }] });
    expect(await sweep({} as never, ctx(10_000))).toMatchObject({ examined: 0 });
    expect(ddbMock.commandCalls(GetCommand)).toHaveLength(0);
  });
});

describe('domain-tenants', () => {
  const queue = (items: Record<string, unknown>[]) =>
    ddbMock
      .on(QueryCommand, { IndexName: 'gsi2', ExpressionAttributeValues: { ':p': keys.tenantSyncPartition } })
      .resolves({ Items: items });
  const served = (hosts: string[]) =>
    ddbMock.on(QueryCommand, { IndexName: 'gsi1' }).resolves({ Items: hosts.map((host) => ({ host })) });

  it("creates the tenant of a verified host, deletes a released host's deployed one, and lets every bucket's CORS allow the served hosts", async () => {
    queue([
      { host: 'a.example.org', want: 'present' },
      { host: 'b.example.org', want: 'absent', tenantId: 'dt-b' },
    ]);
    served(['a.example.org']);
    cfMock.on(CreateDistributionTenantCommand).resolves({ DistributionTenant: { Id: 'dt-a' }, ETag: 'EA' });
    cfMock
      .on(GetDistributionTenantCommand)
      .resolves({ DistributionTenant: { Id: 'dt-b', Enabled: false, Status: 'Deployed' }, ETag: 'EB' });
    cfMock.on(DeleteDistributionTenantCommand).resolves({});
    ddbMock.on(DeleteCommand).resolves({});
    s3Mock.on(GetBucketCorsCommand).rejects(serviceError('NoSuchCORSConfiguration', 'none', 404));
    s3Mock.on(PutBucketCorsCommand).resolves({});

    expect(await domainTenants({} as never)).toEqual({ tenantsCreated: 1, tenantsDeleted: 1, bucketsCorsUpdated: 4 });
    expect(cfMock.commandCalls(CreateDistributionTenantCommand)[0]!.args[0].input).toMatchObject({
      DistributionId: 'EDIST',
      ConnectionGroupId: 'cg-1',
      Domains: [{ Domain: 'a.example.org' }],
      Enabled: true,
    });
    expect(
      ddbMock
        .commandCalls(UpdateCommand)
        .find((c) => (c.args[0].input.Key as { pk?: string }).pk === keys.domainTenant('a.example.org').pk)!.args[0]
        .input.ExpressionAttributeValues,
    ).toMatchObject({ ':id': 'dt-a', ':etag': 'EA' });
    expect(cfMock.commandCalls(DeleteDistributionTenantCommand)[0]!.args[0].input).toEqual({
      Id: 'dt-b',
      IfMatch: 'EB',
    });
    expect(ddbMock.commandCalls(DeleteCommand)[0]!.args[0].input.Key).toEqual(keys.domainTenant('b.example.org'));
    const puts = s3Mock.commandCalls(PutBucketCorsCommand).map((c) => c.args[0].input);
    expect(puts.map((p) => p.Bucket).sort()).toEqual(['fra-anon', 'fra-transfers', 'hk-anon', 'hk-transfers']);
    expect(JSON.stringify(puts[0]!.CORSConfiguration)).toContain('https://a.example.org');
  });

  it('a throttled CloudFront leaves the host queued for the next run; a bucket that refuses its CORS does not stop the others', async () => {
    queue([{ host: 'a.example.org', want: 'present' }]);
    served([]);
    cfMock.on(CreateDistributionTenantCommand).rejects(serviceError('Throttling', 'Rate exceeded'));
    s3Mock.on(GetBucketCorsCommand).resolves({
      CORSRules: [{ AllowedMethods: ['GET'], AllowedOrigins: ['https://old.example.org'], ID: 'custom-domains' }],
    });
    s3Mock.on(PutBucketCorsCommand).resolves({});
    const { DeleteBucketCorsCommand } = await import('@aws-sdk/client-s3');
    s3Mock.on(DeleteBucketCorsCommand).resolves({});
    s3Mock.on(DeleteBucketCorsCommand, { Bucket: 'hk-anon' }).rejects(serviceError('AccessDenied', 'denied', 403));
    s3Mock.on(PutBucketCorsCommand, { Bucket: 'hk-anon' }).rejects(serviceError('AccessDenied', 'denied', 403));
    const result = await domainTenants({} as never);
    expect(result).toMatchObject({ tenantsCreated: 0, tenantsDeleted: 0, bucketsCorsUpdated: 3 });
    expect(
      ddbMock
        .commandCalls(UpdateCommand)
        .some((c) => (c.args[0].input.Key as { pk?: string }).pk === keys.domainTenant('a.example.org').pk),
    ).toBe(false);
  });
});

describe('forward-copy', () => {
  const copy = item('Cpy0001', {
    status: 'uploading',
    forwardedFrom: 'Src0001',
    sendAs: 'link',
    recipients: [],
    createdAt: now,
    expiryDate: now + 86_400_000,
    totalBytes: 10,
  });
  const source = item('Src0001', { status: 'ready', expiryDate: now + 86_400_000 });
  const files = (slug: string, fileId: string, status: string) => ({
    Items: [
      {
        ...keys.transferFile(slug, fileId),
        slug,
        fileId,
        fileName: 'a.bin',
        key: `t/${slug}/${fileId}`,
        size: 10,
        mode: 'single',
        status,
        createdAt: 1,
      },
    ],
  });

  beforeEach(() => {
    ddbMock.on(QueryCommand, { IndexName: 'gsi2' }).resolves({ Items: [{ slug: 'Cpy0001' }] });
    ddbMock.on(UpdateCommand, { Key: keys.forwardCopy('Cpy0001') }).resolves({ Attributes: { files: [['f1', 'g1']] } });
    ddbMock.on(GetCommand, { Key: keys.transfer('Cpy0001') }).resolves({ Item: copy });
    ddbMock.on(GetCommand, { Key: keys.transfer('Src0001') }).resolves({ Item: source });
    ddbMock
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'TRANSFER#Src0001', ':p': keys.filePrefix } })
      .resolves(files('Src0001', 'f1', 'uploaded'));
    ddbMock
      .on(QueryCommand, { ExpressionAttributeValues: { ':pk': 'TRANSFER#Cpy0001', ':p': keys.filePrefix } })
      .resolves(files('Cpy0001', 'g1', 'pending'));
    ddbMock.on(TransactWriteCommand).resolves({});
    ddbMock.on(DeleteCommand).resolves({});
  });

  it('copies a claimed forward inside S3, sends it, and takes it off the queue', async () => {
    s3Mock.on(CopyObjectCommand).resolves({});
    expect(await forwardCopy({} as never, ctx())).toEqual({ sent: 1, failed: 0 });
    expect(s3Mock.commandCalls(CopyObjectCommand)[0]!.args[0].input).toMatchObject({
      Bucket: 'hk-transfers',
      Key: 't/Cpy0001/g1',
      CopySource: 'hk-transfers/t/Src0001/f1',
    });
    expect(ddbMock.commandCalls(TransactWriteCommand)[0]!.args[0].input.TransactItems![0]!.Update).toMatchObject({
      Key: keys.transfer('Cpy0001'),
      ConditionExpression: '#s = :uploading',
    });
    expect(ddbMock.commandCalls(DeleteCommand).map((c) => c.args[0].input.Key)).toContainEqual(
      keys.forwardCopy('Cpy0001'),
    );
  });

  it('a source deleted meanwhile (NoSuchKey): the copy is cancelled and cleaned up, counted failed, and dequeued', async () => {
    s3Mock
      .on(CopyObjectCommand)
      .rejects(Object.assign(serviceError('NoSuchKey', 'gone', 404), { $metadata: { httpStatusCode: 404 } }));
    expect(await forwardCopy({} as never, ctx())).toEqual({ sent: 0, failed: 1 });
    expect(ddbMock.commandCalls(TransactWriteCommand)).toHaveLength(0);
    const cancel = ddbMock
      .commandCalls(UpdateCommand)
      .find((c) => (c.args[0].input.Key as { pk?: string; sk?: string }).sk === 'META')!.args[0].input;
    expect(cancel.ExpressionAttributeValues).toMatchObject({ ':s': 'cancelled', ':f0': 'uploading' });
    expect(s3Mock.commandCalls(ListObjectsV2Command)[0]!.args[0].input.Prefix).toBe('t/Cpy0001/');
    expect(ddbMock.commandCalls(DeleteCommand).map((c) => c.args[0].input.Key)).toContainEqual(
      keys.forwardCopy('Cpy0001'),
    );
  });

  it('a forward another run holds (failed claim) is left alone', async () => {
    ddbMock.on(UpdateCommand, { Key: keys.forwardCopy('Cpy0001') }).rejects(conditionFailed());
    expect(await forwardCopy({} as never, ctx())).toEqual({ sent: 0, failed: 0 });
    expect(s3Mock.commandCalls(CopyObjectCommand)).toHaveLength(0);
    expect(ddbMock.commandCalls(DeleteCommand)).toHaveLength(0);
  });
});
