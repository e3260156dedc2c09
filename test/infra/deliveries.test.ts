/**
 * Download completion in AWS (docs/decisions/0077): each storage region's trail logs the
 * GetObject data events of the served objects only, a rule forwards them to the home region,
 * and the rule there starts the deliveries job.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { CLOUDTRAIL_DETAIL_TYPE, S3_EVENT_SOURCE } from '../../functions/domain/delivery-events';
import { jobs } from '../../functions/routes';
import { logicalId, resourcesOf, synthSendBridge, type TestApp } from './synth';

let t: TestApp;

beforeAll(() => {
  t = synthSendBridge();
});

type Props = Record<string, any>;

const isGetObjectRule = (r: Props) =>
  r.EventPattern?.source?.[0] === S3_EVENT_SOURCE && r.EventPattern?.['detail-type']?.[0] === CLOUDTRAIL_DETAIL_TYPE;

describe('the download trail of each storage region', () => {
  it('logs GetObject data events of the served prefixes of both buckets, and nothing else', () => {
    for (const stack of t.storage.values()) {
      const template = t.template(stack);
      const trails = Object.values(resourcesOf(template, 'AWS::CloudTrail::Trail')).map((r) => r.Properties as Props);
      expect(trails, stack.stackName).toHaveLength(1);
      const trail = trails[0]!;
      expect(trail.IsLogging).toBe(true);
      expect(trail.IsMultiRegionTrail).toBe(false);
      expect(trail.IncludeGlobalServiceEvents).toBe(false);
      expect(trail.EventSelectors).toBeUndefined();
      const [selector, ...others] = trail.AdvancedEventSelectors as Props[];
      expect(others).toEqual([]);
      const fields = Object.fromEntries((selector!.FieldSelectors as Props[]).map((f) => [f.Field, f]));
      expect(fields.eventCategory.Equals).toEqual(['Data']);
      expect(fields['resources.type'].Equals).toEqual(['AWS::S3::Object']);
      expect(fields.eventName.Equals).toEqual(['GetObject']);
      const arns = JSON.stringify(fields['resources.ARN'].StartsWith);
      for (const bucket of [stack.transfersBucket, stack.anonBucket]) {
        const id = logicalId(bucket, stack);
        expect(arns).toContain(id);
      }
      expect(fields['resources.ARN'].StartsWith).toHaveLength(4);
      expect(arns).toContain('/t/');
      expect(arns).toContain('/z/');
      // its log files go to a bucket of its own that only this trail may write to
      const logBucket = trail.S3BucketName.Ref as string;
      const policy = Object.values(resourcesOf(template, 'AWS::S3::BucketPolicy'))
        .map((r) => r.Properties as Props)
        .find((p) => p.Bucket.Ref === logBucket)!;
      const statements = JSON.stringify(policy.PolicyDocument.Statement);
      expect(statements).toContain('cloudtrail.amazonaws.com');
      expect(statements).toContain('aws:SourceArn');
    }
  });

  it('forwards the GetObject events of its buckets to the home region’s default bus', () => {
    for (const stack of t.storage.values()) {
      if (stack.region === t.config.homeRegion) continue;
      const rules = Object.values(resourcesOf(t.template(stack), 'AWS::Events::Rule')).map(
        (r) => r.Properties as Props,
      );
      const forward = rules.find(isGetObjectRule);
      expect(forward, stack.stackName).toBeDefined();
      expect(forward!.EventPattern.detail.eventName).toEqual(['GetObject']);
      expect(forward!.EventPattern.detail.requestParameters.bucketName).toHaveLength(2);
      expect(JSON.stringify(forward!.Targets)).toContain(`:events:${t.config.homeRegion}:`);
    }
  });

  it('starts the deliveries job from those events in the home region, with retries and no bucket access', () => {
    const job = jobs.find((j) => j.name === 'deliveries');
    expect(job?.trigger).toBe('cloudtrail-get-object');
    expect(job?.access.some((a) => a.startsWith('buckets:'))).toBe(false);
    const template = t.template(t.core);
    const rules = Object.values(resourcesOf(template, 'AWS::Events::Rule')).map((r) => r.Properties as Props);
    const rule = rules.find(isGetObjectRule);
    expect(rule).toBeDefined();
    expect(rule!.EventBusName).toBeUndefined();
    expect(rule!.EventPattern.detail.requestParameters.bucketName.length).toBe(2 * t.storage.size);
    expect(rule!.Targets).toHaveLength(1);
    expect(rule!.Targets[0].RetryPolicy.MaximumRetryAttempts).toBeGreaterThan(0);
    const fnId = rule!.Targets[0].Arn['Fn::GetAtt'][0] as string;
    const fn = resourcesOf(template, 'AWS::Lambda::Function')[fnId]!.Properties as Props;
    expect(fn.Description).toContain('deliveries');
  });
});
