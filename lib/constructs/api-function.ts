import { Arn, ArnFormat, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type * as cognito from 'aws-cdk-lib/aws-cognito';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as iam from 'aws-cdk-lib/aws-iam';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { Access } from '../../functions/routes';
import { ENV } from '../../functions/lib/env-names';
import type { RegionId } from '../../functions/domain/regions';
import { LAMBDA_HANDLER } from '../lambda-bundles';
import type * as events from 'aws-cdk-lib/aws-events';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import { originVerifyValue } from '../origin-verify';
import { STRIPE_SECRET_NAME, type PaymentsSettings } from '../app-config';

/** The buckets of one storage region, as the functions see them (REGION_BUCKETS). */
export interface RegionBucketsBinding {
  readonly regionId: RegionId;
  readonly awsRegion: string;
  readonly transfers: s3.IBucket;
  readonly anon: s3.IBucket;
}

/** What `bind(access)` can hand to a function: env values and the resources to grant on. */
export interface ApiResources {
  readonly table: dynamodb.ITableV2;
  readonly regionBuckets: readonly RegionBucketsBinding[];
  readonly defaultRegion: RegionId;
  readonly userPool: cognito.IUserPool;
  readonly userPoolClient: cognito.IUserPoolClient;
  readonly configurationSetName: string;
  readonly mailFrom: string;
  readonly appOrigin: string;
  /** CloudFront's secret origin header value (ORIGIN_VERIFY) */
  readonly originVerify: secretsmanager.ISecret;
  /** the secret's version to resolve (`-c originVerifyVersion`), else its current value */
  readonly originVerifyVersion?: string;
  /** the payments provider of the routes with access 'payments' */
  readonly payments?: PaymentsSettings;
  /** the simulator's generated signing secret (CoreStack creates it when payments are simulated) */
  readonly simulatorWebhookSecret?: secretsmanager.ISecret;
  /** on-demand jobs (routes.ts jobs without a schedule) by name, for routes that start them */
  readonly jobFunctions?: Readonly<Record<string, lambda.IFunction>>;
  /** the multi-tenant distribution and connection group a 'cdn:tenants' job manages (WebStack) */
  readonly tenants?: {
    readonly distributionId: string;
    readonly connectionGroupId: string;
    readonly connectionGroupArn: string;
  };
  /** what users point their custom domain's CNAME at (-c customDomainTarget) */
  readonly customDomainTarget?: string;
  /** the operator address abuse reports are mailed to (-c abuseReportTo) */
  readonly abuseReportTo?: string;
  /** the secret holding the receipt signing keys ('receipts'; CoreStack creates it with no key) */
  readonly receiptKeys?: secretsmanager.ISecret;
  /** the deployment's event bus and the webhook delivery queue ('events:publish') */
  readonly productEvents?: { readonly bus: events.IEventBus; readonly deliveryQueue: sqs.IQueue };
}

export interface ApiFunctionProps {
  /** The bundle (lib/lambda-bundles.ts): `index.mjs` exporting `handler`. */
  readonly code: lambda.Code;
  /** What it serves, for the description: a function group or a job name. */
  readonly name: string;
  readonly resources: ApiResources;
  /**
   * @default Duration.seconds(10) (routes.ts: API Gateway caps integrations at 30 s)
   */
  readonly timeout?: Duration;
  /**
   * @default 512 (MB; arm64, the AWS SDK cold start wants more than the 128 MB default)
   */
  readonly memorySize?: number;
  /**
   * @default logs.RetentionDays.ONE_MONTH
   */
  readonly logRetention?: logs.RetentionDays;
  readonly description?: string;
  /**
   * @default arm64; x86_64 for a job that ships a linux-x64 native package (sharp)
   */
  readonly architecture?: 'arm64' | 'x86_64';
}

/** Cognito admin calls the backend makes (architecture §6): create, prove, update, remove users. */
export const USER_POOL_ADMIN_ACTIONS = [
  'cognito-idp:AdminCreateUser',
  'cognito-idp:AdminGetUser',
  'cognito-idp:AdminSetUserPassword',
  'cognito-idp:AdminUpdateUserAttributes',
  'cognito-idp:AdminDeleteUser',
  'cognito-idp:AdminDisableUser',
  'cognito-idp:AdminEnableUser',
  'cognito-idp:AdminUserGlobalSignOut',
  'cognito-idp:ListUsers',
  'cognito-idp:RevokeToken',
] as const;

const TABLE_READ_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Query',
  'dynamodb:ConditionCheckItem',
  'dynamodb:DescribeTable',
];
const TABLE_WRITE_ACTIONS = [
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchWriteItem',
  'dynamodb:ConditionCheckItem',
];
const OBJECT_READ_ACTIONS = ['s3:GetObject'];
const OBJECT_WRITE_ACTIONS = ['s3:PutObject', 's3:DeleteObject', 's3:AbortMultipartUpload'];

/**
 * The one Lambda construct of the app (conventions §8): a function with the defaults —
 * arm64, nodejs24.x, the ESM bundle of lib/lambda-bundles.ts with source maps, its own log
 * group with retention, X-Ray — and `bind(access)`, which sets the env every function reads
 * and grants exactly what the route table's `access` names.
 *
 * The role keeps its statements in one inline policy instead of grant*() calls: those add an
 * AWS::IAM::Policy resource per function, and every resource counts against the stack's 500.
 */
export class ApiFunction extends Construct {
  readonly function: lambda.Function;
  readonly role: iam.Role;
  readonly logGroup: logs.LogGroup;
  private readonly policy = new iam.PolicyDocument();
  private readonly resources: ApiResources;
  private readonly bound = new Set<Access>();

  constructor(scope: Construct, id: string, props: ApiFunctionProps) {
    super(scope, id);
    this.resources = props.resources;

    this.logGroup = new logs.LogGroup(this, 'Logs', {
      retention: props.logRetention ?? logs.RetentionDays.ONE_MONTH,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    this.role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('lambda.amazonaws.com'),
      description: `SendBridge ${props.name}`,
      inlinePolicies: { Access: this.policy },
    });
    this.policy.addStatements(
      new iam.PolicyStatement({
        actions: ['logs:CreateLogStream', 'logs:PutLogEvents'],
        resources: [this.logGroup.logGroupArn],
      }),
      new iam.PolicyStatement({ actions: ['xray:PutTraceSegments', 'xray:PutTelemetryRecords'], resources: ['*'] }),
    );

    this.function = new lambda.Function(this, 'Function', {
      code: props.code,
      handler: LAMBDA_HANDLER,
      description: props.description ?? `SendBridge ${props.name}`,
      // The newest Node.js runtime of aws-cdk-lib 2.276; Lambda deprecates it on 2028-04-30.
      // cdk-nag's AwsSolutions-L1 (test/infra/nag.test.ts) fails once a newer one exists.
      runtime: lambda.Runtime.NODEJS_24_X,
      architecture: props.architecture === 'x86_64' ? lambda.Architecture.X86_64 : lambda.Architecture.ARM_64,
      memorySize: props.memorySize ?? 512,
      timeout: props.timeout ?? Duration.seconds(10),
      role: this.role,
      logGroup: this.logGroup,
      environment: { NODE_OPTIONS: '--enable-source-maps' },
    });
    // Tracing via the L1 property: the L2 `tracing` prop adds its X-Ray grant as a separate
    // policy resource; the inline statement above already covers it.
    (this.function.node.defaultChild as lambda.CfnFunction).tracingConfig = { mode: lambda.Tracing.ACTIVE };

    this.setEnvironment();
  }

  /** Grants what `access` names (idempotent: a grouped function binds its routes' union). */
  bind(access: readonly Access[], invokes: readonly string[] = []): this {
    for (const a of access) {
      if (a === 'jobs:invoke') continue;
      if (this.bound.has(a)) continue;
      this.bound.add(a);
      this.policy.addStatements(...this.statementsFor(a));
    }
    if (access.includes('jobs:invoke')) this.bindJobs(invokes);
    if (access.includes('payments')) this.bindPayments();
    return this;
  }

  /**
   * lambda:InvokeFunction on the function itself, for a job that continues past its timeout.
   * A policy resource of its own: in the role's inline policy the function's ARN would make the
   * role depend on the function that depends on it.
   */
  allowSelfInvoke(): this {
    new iam.Policy(this, 'SelfInvoke', {
      roles: [this.role],
      statements: [
        new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [this.function.functionArn] }),
      ],
    });
    return this;
  }

  private paymentsBound = false;

  /**
   * The provider choice and Stripe's price ids in env; the keys stay in Secrets Manager (only
   * the secret's name travels, STRIPE_SECRET_ID) and are read by the function at cold start.
   */
  private bindPayments(): void {
    if (this.paymentsBound) return;
    this.paymentsBound = true;
    const p = this.resources.payments ?? {
      provider: 'simulated',
      stripePrices: {},
      stripeSecretName: STRIPE_SECRET_NAME,
    };
    this.function.addEnvironment(ENV.payments, p.provider);
    this.function.addEnvironment(ENV.stripePrices, JSON.stringify(p.stripePrices));
    this.function.addEnvironment(ENV.stripeSecretId, p.stripeSecretName);
    if (p.provider === 'simulated') {
      const secret = this.resources.simulatorWebhookSecret;
      if (!secret) throw new Error('payments=simulated needs the generated simulator secret (CoreStack creates it)');
      this.function.addEnvironment(ENV.paymentsWebhookSecret, secret.secretValue.unsafeUnwrap());
    }
  }

  private readonly invokable = new Map<string, lambda.IFunction>();

  /** lambda:InvokeFunction on exactly the named jobs, and their names in JOB_FUNCTIONS. */
  private bindJobs(names: readonly string[]): void {
    if (names.length === 0)
      throw new Error(`ApiFunction ${this.node.id}: access 'jobs:invoke' needs the route's 'invokes'`);
    for (const name of names) {
      if (this.invokable.has(name)) continue;
      const fn = this.resources.jobFunctions?.[name];
      if (!fn) throw new Error(`ApiFunction ${this.node.id}: no job named '${name}'`);
      this.invokable.set(name, fn);
      this.policy.addStatements(
        new iam.PolicyStatement({ actions: ['lambda:InvokeFunction'], resources: [fn.functionArn] }),
      );
    }
    const env = Object.fromEntries([...this.invokable].map(([name, fn]) => [name, fn.functionName]));
    this.function.addEnvironment(ENV.jobFunctions, Stack.of(this).toJsonString(env));
  }

  private setEnvironment(): void {
    const r = this.resources;
    const regionBuckets = Object.fromEntries(
      r.regionBuckets.map((b) => [
        b.regionId,
        { bucket: b.transfers.bucketName, anonBucket: b.anon.bucketName, awsRegion: b.awsRegion },
      ]),
    );
    const env: Record<string, string> = {
      [ENV.tableName]: r.table.tableName,
      [ENV.regionBuckets]: Stack.of(this).toJsonString(regionBuckets),
      [ENV.defaultRegion]: r.defaultRegion,
      [ENV.userPoolId]: r.userPool.userPoolId,
      [ENV.userPoolClientId]: r.userPoolClient.userPoolClientId,
      [ENV.mailFrom]: r.mailFrom,
      [ENV.sesConfigurationSet]: r.configurationSetName,
      [ENV.appOrigin]: r.appOrigin,
      // A dynamic reference: CloudFormation resolves it at deploy; the template holds no secret.
      [ENV.originVerify]: originVerifyValue(r.originVerify, r.originVerifyVersion),
      [ENV.logLevel]: 'info',
      ...(r.customDomainTarget ? { [ENV.customDomainTarget]: r.customDomainTarget } : {}),
      // GuardDuty Malware Protection scans the buckets; the malware-scan job consumes its results
      [ENV.malwareScanner]: 'guardduty',
      ...(r.abuseReportTo ? { [ENV.abuseReportTo]: r.abuseReportTo } : {}),
    };
    for (const [name, value] of Object.entries(env)) this.function.addEnvironment(name, value);
  }

  private statementsFor(access: Access): iam.PolicyStatement[] {
    const r = this.resources;
    const stack = Stack.of(this);
    const buckets = r.regionBuckets.flatMap((b) => [b.transfers, b.anon]);
    switch (access) {
      case 'table:read':
        return [
          new iam.PolicyStatement({
            actions: TABLE_READ_ACTIONS,
            resources: [r.table.tableArn, `${r.table.tableArn}/index/*`],
          }),
        ];
      case 'table:write':
        return [new iam.PolicyStatement({ actions: TABLE_WRITE_ACTIONS, resources: [r.table.tableArn] })];
      case 'buckets:read':
        return [
          new iam.PolicyStatement({
            actions: OBJECT_READ_ACTIONS,
            resources: buckets.map((b) => b.arnForObjects('*')),
          }),
          // HeadBucket (health) and telling 404 from 403 on HeadObject need ListBucket.
          new iam.PolicyStatement({ actions: ['s3:ListBucket'], resources: buckets.map((b) => b.bucketArn) }),
        ];
      case 'buckets:write':
        return [
          new iam.PolicyStatement({
            actions: OBJECT_WRITE_ACTIONS,
            resources: buckets.map((b) => b.arnForObjects('*')),
          }),
        ];
      case 'mail:send':
        return [
          new iam.PolicyStatement({
            actions: ['ses:SendEmail', 'ses:SendRawEmail'],
            resources: [
              Arn.format({ service: 'ses', resource: 'identity', resourceName: '*' }, stack),
              Arn.format(
                { service: 'ses', resource: 'configuration-set', resourceName: r.configurationSetName },
                stack,
              ),
            ],
          }),
        ];
      case 'mail:read':
        return [new iam.PolicyStatement({ actions: ['ses:GetAccount'], resources: ['*'] })];
      case 'userpool:read':
        return [
          new iam.PolicyStatement({ actions: ['cognito-idp:DescribeUserPool'], resources: [r.userPool.userPoolArn] }),
        ];
      case 'userpool:admin':
        return [
          new iam.PolicyStatement({ actions: [...USER_POOL_ADMIN_ACTIONS], resources: [r.userPool.userPoolArn] }),
        ];
      case 'jobs:invoke':
        return []; // granted per job by bindJobs
      case 'payments':
        // The one Stripe secret by name: Secrets Manager appends 6 random characters to its ARN.
        return [
          new iam.PolicyStatement({
            actions: ['secretsmanager:GetSecretValue'],
            resources: [
              Arn.format(
                {
                  service: 'secretsmanager',
                  resource: 'secret',
                  resourceName: `${r.payments?.stripeSecretName ?? STRIPE_SECRET_NAME}-??????`,
                  arnFormat: ArnFormat.COLON_RESOURCE_NAME,
                },
                stack,
              ),
            ],
          }),
        ];
      case 'mail:identities':
        // Users' sender domains: identities only, never sending or account settings.
        return [
          new iam.PolicyStatement({
            actions: ['ses:CreateEmailIdentity', 'ses:GetEmailIdentity', 'ses:DeleteEmailIdentity'],
            resources: [Arn.format({ service: 'ses', resource: 'identity', resourceName: '*' }, stack)],
          }),
        ];
      case 'cdn:tenants': {
        // Tenants of the one multi-tenant distribution; tenant ids are only known once made.
        const t = r.tenants;
        if (!t)
          throw new Error(
            `ApiFunction ${this.node.id}: access 'cdn:tenants' needs the multi-tenant distribution (WebStack)`,
          );
        this.function.addEnvironment(ENV.tenantDistributionId, t.distributionId);
        this.function.addEnvironment(ENV.connectionGroupId, t.connectionGroupId);
        const cf = (resource: string) =>
          Arn.format(
            {
              service: 'cloudfront',
              region: '',
              resource,
              arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
              resourceName: undefined,
            },
            stack,
          );
        return [
          new iam.PolicyStatement({
            actions: ['cloudfront:CreateDistributionTenant'],
            resources: [cf(`distribution/${t.distributionId}`), t.connectionGroupArn, cf('distribution-tenant/*')],
          }),
          new iam.PolicyStatement({
            actions: [
              'cloudfront:GetDistributionTenant',
              'cloudfront:GetDistributionTenantByDomain',
              'cloudfront:UpdateDistributionTenant',
              'cloudfront:DeleteDistributionTenant',
            ],
            resources: [cf('distribution-tenant/*')],
          }),
        ];
      }
      case 'events:publish': {
        // product events on the deployment's bus, webhook deliveries to their queue.
        const pe = r.productEvents;
        if (!pe)
          throw new Error(
            `ApiFunction ${this.node.id}: access 'events:publish' needs the event bus and delivery queue`,
          );
        this.function.addEnvironment(ENV.eventBusName, pe.bus.eventBusName);
        this.function.addEnvironment(ENV.webhookQueueUrl, pe.deliveryQueue.queueUrl);
        const statements = [
          new iam.PolicyStatement({ actions: ['events:PutEvents'], resources: [pe.bus.eventBusArn] }),
          new iam.PolicyStatement({ actions: ['sqs:SendMessage'], resources: [pe.deliveryQueue.queueArn] }),
        ];
        if (pe.deliveryQueue.encryptionMasterKey) {
          statements.push(
            new iam.PolicyStatement({
              actions: ['kms:GenerateDataKey', 'kms:Decrypt'],
              resources: [pe.deliveryQueue.encryptionMasterKey.keyArn],
            }),
          );
        }
        return statements;
      }
      case 'buckets:cors':
        // The custom hosts' CORS rule: the buckets' configuration, none of their objects.
        // PutBucketCors, DeleteBucketCors and GetBucketCors are all authorized by these two actions.
        return [
          new iam.PolicyStatement({
            actions: ['s3:GetBucketCORS', 's3:PutBucketCORS'],
            resources: buckets.map((b) => b.bucketArn),
          }),
        ];
      case 'receipts': {
        // The one receipt keys secret: read to sign and publish, written once for the first key
        // and at each rotation (services/receipts.ts).
        const secret = r.receiptKeys;
        if (!secret) throw new Error(`ApiFunction ${this.node.id}: access 'receipts' needs the receipt keys secret`);
        this.function.addEnvironment(ENV.receiptKeysSecretId, secret.secretArn);
        return [
          new iam.PolicyStatement({
            actions: ['secretsmanager:GetSecretValue', 'secretsmanager:PutSecretValue'],
            resources: [secret.secretArn],
          }),
        ];
      }
      default: {
        const unknown: never = access;
        throw new Error(`ApiFunction: no grant defined for access '${String(unknown)}'`);
      }
    }
  }
}
