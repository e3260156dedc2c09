import { QUARANTINE_PREFIX, QUARANTINE_RETENTION_DAYS } from '../../functions/domain/malware-scan';
import { APP_ORIGINS_RULE_ID } from '../../functions/domain/bucket-cors';
import { IMAGE_STAGING_DAYS, IMAGE_STAGING_PREFIX } from '../../functions/domain/branding';
import { beforeAll, describe, expect, it } from 'vitest';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { BUCKET_CORS } from '../../functions/routes';
import { SPEED_TEST_BYTES, SPEED_TEST_KEY } from '../../functions/domain/regions';
import { FALLBACK_BUCKET_ORIGINS } from '../../lib/app-config';
import { ABORT_INCOMPLETE_UPLOAD_DAYS, ANON_OBJECT_EXPIRY_DAYS, speedTestContent } from '../../lib/storage-stack';
import { logicalId, resourcesOf, synthSendBridge, type TestApp } from './synth';

let t: TestApp;

beforeAll(() => {
  t = synthSendBridge();
});

const storageStacks = () => [...t.storage.values()];

/** The bucket policy statement that denies plain-HTTP requests. */
function deniesInsecureTransport(template: Template, bucketId: string): boolean {
  return Object.values(resourcesOf(template, 'AWS::S3::BucketPolicy')).some((p) => {
    const props = p.Properties as {
      Bucket: { Ref: string };
      PolicyDocument: { Statement: Array<Record<string, unknown>> };
    };
    return (
      props.Bucket.Ref === bucketId &&
      props.PolicyDocument.Statement.some(
        (s) => s.Effect === 'Deny' && JSON.stringify(s.Condition) === '{"Bool":{"aws:SecureTransport":"false"}}',
      )
    );
  });
}

describe('StorageStack', () => {
  it('creates one storage stack per region, in that region', () => {
    expect([...t.storage.keys()]).toEqual(['hongkong', 'frankfurt']);
    expect(t.storage.get('hongkong')!.region).toBe('ap-east-1');
    expect(t.storage.get('frankfurt')!.region).toBe('eu-central-1');
    expect(t.chinaStorage.size).toBe(0);
  });

  it('keeps every bucket private, encrypted, TLS-only, ACL-free and retained', () => {
    for (const stack of [...storageStacks(), t.web]) {
      const template = t.template(stack);
      const buckets = resourcesOf(template, 'AWS::S3::Bucket');
      expect(Object.keys(buckets).length).toBeGreaterThan(0);
      for (const [id, bucket] of Object.entries(buckets)) {
        expect(bucket.Properties!.PublicAccessBlockConfiguration, `${stack.stackName}/${id}`).toEqual({
          BlockPublicAcls: true,
          BlockPublicPolicy: true,
          IgnorePublicAcls: true,
          RestrictPublicBuckets: true,
        });
        expect(bucket.Properties!.BucketEncryption).toEqual({
          ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }],
        });
        expect(bucket.DeletionPolicy).toBe('Retain');
        expect(deniesInsecureTransport(template, id), `${stack.stackName}/${id} enforces SSL`).toBe(true);
      }
    }
  });

  it('aborts incomplete multipart uploads after 7 days and logs access', () => {
    for (const stack of storageStacks()) {
      const template = t.template(stack);
      for (const bucket of [stack.transfersBucket, stack.anonBucket]) {
        const props = resourcesOf(template, 'AWS::S3::Bucket')[logicalId(bucket, stack)]!.Properties!;
        expect(props.LifecycleConfiguration).toMatchObject({
          Rules: expect.arrayContaining([
            expect.objectContaining({
              AbortIncompleteMultipartUpload: { DaysAfterInitiation: ABORT_INCOMPLETE_UPLOAD_DAYS },
              Status: 'Enabled',
            }),
          ]),
        });
        expect(props.LoggingConfiguration).toMatchObject({
          DestinationBucketName: { Ref: expect.stringMatching(/^AccessLogs/) },
        });
        expect(props.VersioningConfiguration).toBeUndefined();
      }
    }
  });

  it('expires anonymous uploads as a backstop, and in the transfers bucket only the unchecked image uploads under staging/ and quarantined files under q/', () => {
    for (const stack of storageStacks()) {
      const buckets = resourcesOf(t.template(stack), 'AWS::S3::Bucket');
      const anonRules = (
        buckets[logicalId(stack.anonBucket, stack)]!.Properties!.LifecycleConfiguration as { Rules: object[] }
      ).Rules;
      expect(anonRules).toContainEqual(expect.objectContaining({ ExpirationInDays: ANON_OBJECT_EXPIRY_DAYS }));
      const transferRules = (
        buckets[logicalId(stack.transfersBucket, stack)]!.Properties!.LifecycleConfiguration as { Rules: object[] }
      ).Rules;
      const expiring = transferRules.filter((r) => 'ExpirationInDays' in r);
      expect(expiring).toEqual([
        expect.objectContaining({
          Id: 'ExpireUnacceptedImageUploads',
          Prefix: IMAGE_STAGING_PREFIX,
          ExpirationInDays: IMAGE_STAGING_DAYS,
          Status: 'Enabled',
        }),
        // quarantined files are evidence for QUARANTINE_RETENTION_DAYS, then go
        expect.objectContaining({
          Id: 'ExpireQuarantinedFiles',
          Prefix: QUARANTINE_PREFIX,
          ExpirationInDays: QUARANTINE_RETENTION_DAYS,
          Status: 'Enabled',
        }),
      ]);
    }
  });

  it("allows the browser to PUT and GET with BUCKET_CORS and read ETag (the app-origins rule; the tenant job owns the custom hosts' rule)", () => {
    for (const stack of storageStacks()) {
      for (const bucket of [stack.transfersBucket, stack.anonBucket]) {
        const props = resourcesOf(t.template(stack), 'AWS::S3::Bucket')[logicalId(bucket, stack)]!.Properties!;
        expect(props.CorsConfiguration).toEqual({
          CorsRules: [
            {
              Id: APP_ORIGINS_RULE_ID,
              AllowedOrigins: [...FALLBACK_BUCKET_ORIGINS],
              AllowedMethods: [...BUCKET_CORS.allowMethods],
              AllowedHeaders: [...BUCKET_CORS.allowHeaders],
              ExposedHeaders: ['ETag', 'x-amz-request-id'],
              MaxAge: BUCKET_CORS.maxAgeSeconds,
            },
          ],
        });
      }
    }
  });

  it('uses the configured app origins for bucket CORS', () => {
    const custom = synthSendBridge({ regions: 'dubai', appOrigins: 'https://send.example.com' });
    custom.template(custom.storage.get('dubai')!).hasResourceProperties('AWS::S3::Bucket', {
      CorsConfiguration: { CorsRules: [Match.objectLike({ AllowedOrigins: ['https://send.example.com'] })] },
    });
    expect(custom.storage.get('dubai')!.region).toBe('me-central-1');
    expect(custom.core.region).toBe('eu-central-1');
  });

  it('puts the 128 KB speed-test object in the transfers bucket without pruning user files', () => {
    expect(speedTestContent(SPEED_TEST_BYTES)).toHaveLength(SPEED_TEST_BYTES);
    expect(speedTestContent(SPEED_TEST_BYTES)).toBe(speedTestContent(SPEED_TEST_BYTES));
    for (const stack of storageStacks()) {
      t.template(stack).hasResourceProperties('Custom::CDKBucketDeployment', {
        DestinationBucketName: { Ref: logicalId(stack.transfersBucket, stack) },
        Prune: false,
        RetainOnDelete: true,
        SystemMetadata: Match.objectLike({ 'content-type': 'application/octet-stream' }),
      });
    }
    expect(SPEED_TEST_KEY).toBe('speedtest/128kb.bin');
  });
});

describe('China-partition regions', () => {
  it('are refused without a China account', () => {
    expect(() => synthSendBridge({ regions: 'hongkong,hangzhou' })).toThrow(/chinaAccount/);
  });

  it('are deployed standalone, outside the API, with an explicit China account', () => {
    const cn = synthSendBridge({ regions: 'hongkong,hangzhou', chinaAccount: '111122223333' });
    const stack = cn.chinaStorage.get('hangzhou')!;
    expect(stack.stackName).toBe('SendBridgeCN-Storage-Hangzhou');
    expect(stack.region).toBe('cn-north-1');
    expect(stack.account).toBe('111122223333');
    expect([...cn.storage.keys()]).toEqual(['hongkong']);
    const fn = Object.values(resourcesOf(cn.template(cn.core), 'AWS::Lambda::Function'))[0]!;
    expect(JSON.stringify(fn.Properties!.Environment)).not.toContain('hangzhou');
  });
});
