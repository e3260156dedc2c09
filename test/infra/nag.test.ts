import { beforeAll, describe, expect, it } from 'vitest';
import { App, type CfnResource, Stack, Validations } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { IConstruct } from 'constructs';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Access } from '../../functions/routes';
import { ApiFunction } from '../../lib/constructs/api-function';
import { unbundledDir } from '../../lib/lambda-bundles';
import { SendBridgeChecks, acknowledgeIamWildcards } from '../../lib/nag/checks';
import { cdkJsonContext, synthSendBridge, type TestApp } from './synth';

interface Acknowledgement {
  readonly path: string;
  readonly id: string;
  readonly reason: unknown;
}

function acknowledgements(scope: IConstruct): Acknowledgement[] {
  return scope.node
    .findAll()
    .flatMap((c) =>
      c.node.metadata
        .filter((m) => m.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
        .flatMap((m) =>
          Object.entries(m.data as Record<string, unknown>).map(([id, reason]) => ({ path: c.node.path, id, reason })),
        ),
    );
}

function violations(app: App, severity: string) {
  return new SendBridgeChecks()
    .validateScope(app)
    .violations.filter((v) => v.severity === severity)
    .map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`);
}

describe('cdk-nag AwsSolutions', () => {
  let t: TestApp;
  let errors: string[];

  beforeAll(() => {
    t = synthSendBridge({ regions: 'hongkong,frankfurt,siliconvalley' });
    errors = violations(t.app, 'error');
  });

  it('has no unacknowledged error', () => {
    expect(errors).toEqual([]);
  });

  it('gives every acknowledgement a written reason', () => {
    const acks = acknowledgements(t.app);
    expect(acks.length).toBeGreaterThan(0);
    for (const ack of acks) {
      expect(typeof ack.reason, `${ack.path} ${ack.id}`).toBe('string');
      expect((ack.reason as string).trim().length, `${ack.path} ${ack.id}`).toBeGreaterThan(20);
    }
  });

  it('has no unacknowledged error with a custom domain, app origins and a China region either', () => {
    const other = synthSendBridge({
      regions: 'dubai,hangzhou',
      chinaAccount: '111122223333',
      appOrigins: 'https://send.example.com',
      domainName: 'send.example.com',
      certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc',
    });
    expect(violations(other.app, 'error')).toEqual([]);
  });
});

describe('ApiFunction grants', () => {
  it('pass cdk-nag for every access kind, including ones no route uses yet', () => {
    const app = new App({
      context: { ...cdkJsonContext(), 'aws:cdk:bundling-stacks': [] },
      builtinCloudFormationValidation: false,
    });
    const stack = new Stack(app, 'S', { env: { region: 'eu-central-1' } });
    const userPool = new cognito.UserPool(stack, 'Pool');
    const fn = new ApiFunction(stack, 'Fn', {
      name: 'every access',
      code: lambda.Code.fromAsset(unbundledDir()),
      resources: {
        table: new dynamodb.TableV2(stack, 'Table', {
          partitionKey: { name: 'pk', type: dynamodb.AttributeType.STRING },
        }),
        regionBuckets: [
          {
            regionId: 'frankfurt',
            awsRegion: 'eu-central-1',
            transfers: new s3.Bucket(stack, 'T'),
            anon: new s3.Bucket(stack, 'A'),
          },
        ],
        defaultRegion: 'frankfurt',
        userPool,
        userPoolClient: userPool.addClient('Client'),
        configurationSetName: 'mail',
        mailFrom: 'a@example.com',
        appOrigin: 'https://send.example.com',
        originVerify: new secretsmanager.Secret(stack, 'OriginVerify'),
      },
    });
    const all: Access[] = [
      'table:read',
      'table:write',
      'buckets:read',
      'buckets:write',
      'mail:send',
      'mail:read',
      'userpool:read',
      'userpool:admin',
    ];
    fn.bind(all);
    app.synth();
    const fnErrors = violations(app, 'error').filter((v) => v.includes('S/Fn/'));
    expect(fnErrors).toEqual([]);
  });
});

describe('IAM wildcard allowances', () => {
  function policy(statements: iam.PolicyStatement[]): { app: App; node: CfnResource } {
    const app = new App();
    const stack = new Stack(app, 'S', { env: { account: '123456789012', region: 'eu-central-1' } });
    const role = new iam.Role(stack, 'R', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      inlinePolicies: { P: new iam.PolicyDocument({ statements }) },
    });
    return { app, node: role.node.defaultChild as CfnResource };
  }

  it('acknowledges X-Ray on * but not another action merged into the same statement', () => {
    const { app, node } = policy([
      new iam.PolicyStatement({ actions: ['xray:PutTraceSegments'], resources: ['*'] }),
      new iam.PolicyStatement({ actions: ['s3:ListAllMyBuckets'], resources: ['*'] }),
    ]);
    acknowledgeIamWildcards(node);
    expect(acknowledgements(app)).toEqual([]);
  });

  it('acknowledges object wildcards only for the object actions the app grants', () => {
    const { app, node } = policy([
      new iam.PolicyStatement({ actions: ['s3:GetObject', 's3:PutObject'], resources: ['arn:aws:s3:::b/*'] }),
      new iam.PolicyStatement({ actions: ['s3:PutBucketPolicy'], resources: ['arn:aws:s3:::c/*'] }),
      new iam.PolicyStatement({ actions: ['s3:*'], resources: ['arn:aws:s3:::d'] }),
    ]);
    acknowledgeIamWildcards(node);
    expect(acknowledgements(app).map((a) => a.id)).toEqual([
      'Annotation::AwsSolutions-IAM5[Resource::arn:aws:s3:::b/*]',
    ]);
  });

  it('never acknowledges object access to every bucket or mail from identities of any account', () => {
    const { app, node } = policy([
      new iam.PolicyStatement({ actions: ['s3:GetObject'], resources: ['arn:aws:s3:::*/*'] }),
      new iam.PolicyStatement({ actions: ['ses:SendEmail'], resources: ['arn:aws:ses:*:*:identity/*'] }),
      new iam.PolicyStatement({
        actions: ['ses:SendRawEmail'],
        resources: ['arn:aws:ses:eu-central-1:123456789012:identity/*'],
      }),
    ]);
    acknowledgeIamWildcards(node);
    expect(acknowledgements(app).map((a) => a.id)).toEqual([
      'Annotation::AwsSolutions-IAM5[Resource::arn:aws:ses:eu-central-1:123456789012:identity/*]',
    ]);
  });
});
