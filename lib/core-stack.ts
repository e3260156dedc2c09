import { Annotations, Aws, CfnOutput, Duration, Fn, RemovalPolicy, Stack, type StackProps } from 'aws-cdk-lib';
import * as apigw from 'aws-cdk-lib/aws-apigateway';
import * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpJwtAuthorizer } from 'aws-cdk-lib/aws-apigatewayv2-authorizers';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sqs from 'aws-cdk-lib/aws-sqs';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import * as ses from 'aws-cdk-lib/aws-ses';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { GUARDDUTY_DETAIL_TYPE, GUARDDUTY_SOURCE } from '../functions/domain/malware-scan';
import {
  API_CORS,
  API_PREFIX,
  functionsOf,
  jobs,
  routes,
  type FunctionDef,
  type FunctionGroup,
  type RouteDef,
} from '../functions/routes';
import { TABLE_GSIS, TABLE_KEYS, TTL_ATTRIBUTE } from '../functions/data/table-schema';
import { DEFAULT_REGION, type RegionId } from '../functions/domain/regions';
import { ApiFunction, type ApiResources, type RegionBucketsBinding } from './constructs/api-function';
import { apiBundleName, buildLambdaBundles, jobBundleName, lambdaBundleSpecs, unbundledDir } from './lambda-bundles';
import { acknowledge } from './nag/acknowledge';
import { getObjectPattern } from './storage-stack';
import type { PaymentsSettings } from './app-config';

export interface CoreStackProps extends StackProps {
  /** Storage regions served by the API (their buckets go into REGION_BUCKETS and the grants). */
  readonly regionBuckets: readonly RegionBucketsBinding[];
  readonly mailFrom: string;
  readonly appOrigin: string;
  /**
   * Origins other than the app's own (custom domains) allowed to call the API cross-origin.
   * @default - no CORS: the app calls the API on its own origin through CloudFront
   */
  readonly corsOrigins?: readonly string[];
  /**
   * @default { rateLimit: 200, burstLimit: 400 } requests per second for the stage
   */
  readonly throttle?: apigwv2.ThrottleSettings;
  /**
   * The HTTP API's routes (infra tests pass a generated table to check the stack's headroom).
   * @default routes of functions/routes.ts
   */
  readonly routes?: readonly RouteDef[];
  /**
   * the payments provider and Stripe's price ids for routes with access 'payments'.
   * @default the simulator
   */
  readonly payments?: PaymentsSettings;
  /** -c customDomainTarget, the CNAME target the domain settings page shows */
  readonly customDomainTarget?: string;
  /** -c abuseReportTo */
  readonly abuseReportTo?: string;
  /** `-c originVerifyVersion`: the origin-verify secret's version the functions expect */
  readonly originVerifyVersion?: string;
}

/** Default-stage throttling: uploads ask for part URLs in batches, so this is far above real use. */
export const DEFAULT_API_THROTTLE: apigwv2.ThrottleSettings = { rateLimit: 200, burstLimit: 400 };
export const JOB_DEFAULT_TIMEOUT_SECONDS = 60;

/** Construct id part of a name: `expiry-sweep` -> `ExpirySweep`, `http/system/health` -> `HttpSystemHealth`. */
export function handlerConstructId(handler: string): string {
  return handler
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
}

/**
 * The home-region core: the single table, the user pool and its client, the SES configuration
 * set, the HTTP API with one Lambda per function group of functions/routes.ts (each dispatching
 * its routes by route key), and the scheduled and on-demand jobs.
 */
export class CoreStack extends Stack {
  readonly table: dynamodb.TableV2;
  readonly userPool: cognito.UserPool;
  readonly userPoolClient: cognito.UserPoolClient;
  readonly httpApi: apigwv2.HttpApi;
  /** `{apiId}.execute-api.{region}.amazonaws.com`, the CloudFront origin of `/api/*`. */
  readonly apiDomainName: string;
  /**
   * The value CloudFront sends as `x-origin-verify` on `/api/*` and the functions compare
   * (ORIGIN_VERIFY): viewer headers are trusted only beside it (functions/lib/http.ts).
   */
  readonly originVerify: secretsmanager.Secret;
  /** Function group (functions/routes.ts FUNCTION_GROUPS) -> the function serving its routes. */
  readonly routeFunctions = new Map<FunctionGroup, ApiFunction>();
  readonly jobFunctions = new Map<string, ApiFunction>();
  /** what every function is bound to, for the jobs the WebStack runs (`stack: 'web'`) */
  readonly apiResources: ApiResources;
  /** the bundled code of a function or job by bundle name (lib/lambda-bundles.ts) */
  readonly codeFor: (name: string) => lambda.Code;

  constructor(scope: Construct, id: string, props: CoreStackProps) {
    super(scope, id, props);

    this.table = new dynamodb.TableV2(this, 'Table', {
      partitionKey: { name: TABLE_KEYS.partitionKey, type: dynamodb.AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sortKey, type: dynamodb.AttributeType.STRING },
      globalSecondaryIndexes: TABLE_GSIS.map((g) => ({
        indexName: g.indexName,
        partitionKey: { name: g.partitionKey, type: dynamodb.AttributeType.STRING },
        sortKey: { name: g.sortKey, type: dynamodb.AttributeType.STRING },
        projectionType: dynamodb.ProjectionType.ALL,
      })),
      billing: dynamodb.Billing.onDemand(),
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      timeToLiveAttribute: TTL_ATTRIBUTE,
      // Always encrypted at rest; the DynamoDB-owned key costs nothing per request and needs no
      // grants. Switch to customerManagedKey() if key ownership becomes a compliance need.
      encryption: dynamodb.TableEncryptionV2.dynamoOwnedKey(),
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });

    this.userPool = new cognito.UserPool(this, 'UserPool', {
      // Email is the username; users are created by the backend (AdminCreateUser) once their
      // 5-digit code is proven (architecture §6), never by self sign-up.
      signInAliases: { email: true },
      signInCaseSensitive: false,
      selfSignUpEnabled: false,
      standardAttributes: { email: { required: true, mutable: true } },
      passwordPolicy: {
        minLength: 6,
        requireLowercase: false,
        requireUppercase: false,
        requireDigits: false,
        requireSymbols: false,
      },
      mfa: cognito.Mfa.OFF,
      // The reset-password link is ours (architecture §6); Cognito's ForgotPassword would let
      // anyone trigger unbranded mail, so account recovery through Cognito is off.
      accountRecovery: cognito.AccountRecovery.NONE,
      featurePlan: cognito.FeaturePlan.ESSENTIALS,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(this.userPool, 'AwsSolutions-COG1', 'passwordPolicy');
    acknowledge(this.userPool, 'AwsSolutions-COG2', 'noMfa');
    acknowledge(this.userPool, 'AwsSolutions-COG8', 'cognitoPlan');

    this.userPoolClient = this.userPool.addClient('WebClient', {
      // USER_PASSWORD_AUTH from the backend; REFRESH_TOKEN_AUTH is always on.
      authFlows: { userPassword: true },
      generateSecret: false,
      disableOAuth: true,
      enableTokenRevocation: true,
      preventUserExistenceErrors: true,
      // Short-lived: a logout or a reused refresh cookie also ends access tokens through the
      // API's revocation check, and this bounds how long any copied token can be replayed.
      accessTokenValidity: Duration.minutes(15),
      idTokenValidity: Duration.minutes(15),
      refreshTokenValidity: Duration.days(30),
    });

    const mail = new ses.ConfigurationSet(this, 'MailConfigurationSet', {
      reputationMetrics: true,
      sendingEnabled: true,
      suppressionReasons: ses.SuppressionReasons.BOUNCES_AND_COMPLAINTS,
    });

    this.originVerify = new secretsmanager.Secret(this, 'OriginVerify', {
      description: 'SendBridge: the header value CloudFront adds to /api/* requests (x-origin-verify)',
      generateSecretString: { passwordLength: 48, excludePunctuation: true },
    });
    acknowledge(this.originVerify, 'AwsSolutions-SMG4', 'originVerifyRotation');

    // Receipt signing keys: created empty, the first function to sign or publish stores the
    // first key and rotations add keys (services/receipts.ts; docs/decisions/0078).
    const receiptKeys = new secretsmanager.Secret(this, 'ReceiptSigningKeys', {
      description:
        'SendBridge: the Ed25519 keys delivery receipts are signed with (JSON key set, kept by the functions)',
      generateSecretString: {
        secretStringTemplate: JSON.stringify({ keys: [] }),
        generateStringKey: 'created',
        passwordLength: 16,
        excludePunctuation: true,
      },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    acknowledge(receiptKeys, 'AwsSolutions-SMG4', 'receiptKeysRotation');

    // The simulator in AWS signs its events with a generated secret, never the local stack's
    // built-in one, which is public in this repository.
    let simulatorWebhookSecret: secretsmanager.Secret | undefined;
    if ((props.payments?.provider ?? 'simulated') === 'simulated') {
      simulatorWebhookSecret = new secretsmanager.Secret(this, 'PaymentsSimulatorWebhookSecret', {
        description: 'SendBridge: the payments simulator signs the events it delivers to /api/stripe/webhook with this',
        generateSecretString: { passwordLength: 48, excludePunctuation: true },
      });
      acknowledge(simulatorWebhookSecret, 'AwsSolutions-SMG4', 'simulatorSecretRotation');
      Annotations.of(this).addWarningV2(
        'sendbridge:payments:simulated',
        'Payments run on the simulator (-c payments=simulated): anyone can subscribe to any plan with the test card 4242 4242 4242 4242. Its events are signed with the generated PaymentsSimulatorWebhookSecret. For real payments deploy with -c payments=stripe (docs/deploy.md).',
      );
    }

    const served = props.regionBuckets.map((b) => b.regionId);
    const defaultRegion: RegionId = served.includes(DEFAULT_REGION) ? DEFAULT_REGION : served[0]!;
    const productEvents = this.productEvents();
    const resources: ApiResources = {
      productEvents,
      receiptKeys,
      table: this.table,
      regionBuckets: props.regionBuckets,
      defaultRegion,
      userPool: this.userPool,
      userPoolClient: this.userPoolClient,
      configurationSetName: mail.configurationSetName,
      mailFrom: props.mailFrom,
      appOrigin: props.appOrigin,
      originVerify: this.originVerify,
      ...(props.originVerifyVersion ? { originVerifyVersion: props.originVerifyVersion } : {}),
      ...(props.payments ? { payments: props.payments } : {}),
      ...(simulatorWebhookSecret ? { simulatorWebhookSecret } : {}),
      ...(props.customDomainTarget ? { customDomainTarget: props.customDomainTarget } : {}),
      ...(props.abuseReportTo ? { abuseReportTo: props.abuseReportTo } : {}),
    };
    this.apiResources = resources;

    this.httpApi = this.createApi(props);
    // Built from the API id rather than split out of its endpoint URL: the Web stack reads it through
    // Fn::GetStackOutput, which CloudFormation's rules do not allow inside Fn::Split.
    this.apiDomainName = Fn.join('', [this.httpApi.apiId, '.execute-api.', this.region, '.', Aws.URL_SUFFIX]);
    const table = props.routes ?? routes;
    const apiFunctions = functionsOf(table);
    const code = this.bundles(table);
    this.codeFor = code;
    // Jobs first: routes that start on-demand jobs need their functions.
    const jobFunctions = this.addJobs(resources, code);
    // the delivery job consumes the webhook queue (one attempt per message; failures of
    // the attempt itself are reported per message, and after 5 receives a message goes to the DLQ).
    const deliver = this.jobFunctions.get('webhook-deliver');
    if (deliver) {
      deliver.function.addEventSource(
        new SqsEventSource(productEvents.deliveryQueue, {
          batchSize: 10,
          maxBatchingWindow: Duration.seconds(1),
          reportBatchItemFailures: true,
        }),
      );
    }
    this.addRoutes(apiFunctions, { ...resources, jobFunctions }, code);

    new CfnOutput(this, 'ApiEndpoint', { value: this.httpApi.apiEndpoint });
    new CfnOutput(this, 'TableName', { value: this.table.tableName });
    new CfnOutput(this, 'UserPoolId', { value: this.userPool.userPoolId });
    new CfnOutput(this, 'UserPoolClientId', { value: this.userPoolClient.userPoolClientId });
    new CfnOutput(this, 'SesConfigurationSetName', { value: mail.configurationSetName });
  }

  /**
   * every product event goes on this bus (source `sendbridge`, detail-type the event
   * type), where operators add rules to route them anywhere; webhook deliveries run from the
   * queue, whose dead-letter queue keeps messages an attempt could not even be made for.
   */
  private productEvents(): { bus: events.EventBus; deliveryQueue: sqs.Queue; deadLetters: sqs.Queue } {
    const bus = new events.EventBus(this, 'ProductEvents', {
      description: 'SendBridge product events (transfer.created, transfer.downloaded, ...)',
    });
    new events.Archive(this, 'ProductEventsArchive', {
      sourceEventBus: bus,
      eventPattern: { source: ['sendbridge'] },
      retention: Duration.days(30),
      description: 'SendBridge product events, replayable for 30 days',
    });
    const deadLetters = new sqs.Queue(this, 'WebhookDeadLetters', {
      retentionPeriod: Duration.days(14),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
    });
    acknowledge(deadLetters, 'AwsSolutions-SQS3', 'deadLetterQueue');
    const deliveryQueue = new sqs.Queue(this, 'WebhookDeliveries', {
      // six times the delivery job's timeout (60 s), as Lambda's SQS event source advises
      visibilityTimeout: Duration.seconds(360),
      retentionPeriod: Duration.days(2),
      encryption: sqs.QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      deadLetterQueue: { queue: deadLetters, maxReceiveCount: 5 },
    });
    new CfnOutput(this, 'EventBusName', { value: bus.eventBusName });
    new CfnOutput(this, 'WebhookDeadLetterQueueUrl', { value: deadLetters.queueUrl });
    return { bus, deliveryQueue, deadLetters };
  }

  private createApi(props: CoreStackProps): apigwv2.HttpApi {
    const corsOrigins = props.corsOrigins ?? [];
    const api = new apigwv2.HttpApi(this, 'HttpApi', {
      description: 'SendBridge API (served to browsers through CloudFront /api/*)',
      createDefaultStage: false,
      corsPreflight:
        corsOrigins.length === 0
          ? undefined
          : {
              allowOrigins: [...corsOrigins],
              allowMethods: API_CORS.allowMethods.map((m) => apigwv2.CorsHttpMethod[m]),
              allowHeaders: [...API_CORS.allowHeaders],
              exposeHeaders: [...API_CORS.exposeHeaders],
              allowCredentials: API_CORS.allowCredentials,
              maxAge: Duration.seconds(API_CORS.maxAgeSeconds),
            },
    });
    const accessLogs = new logs.LogGroup(this, 'ApiAccessLogs', {
      retention: logs.RetentionDays.THREE_MONTHS,
      removalPolicy: RemovalPolicy.DESTROY,
    });
    new apigwv2.HttpStage(this, 'DefaultStage', {
      httpApi: api,
      stageName: '$default',
      autoDeploy: true,
      throttle: props.throttle ?? DEFAULT_API_THROTTLE,
      accessLogSettings: {
        destination: new apigwv2.LogGroupLogDestination(accessLogs),
        format: apigw.AccessLogFormat.custom(
          JSON.stringify({
            requestId: '$context.requestId',
            ip: '$context.identity.sourceIp',
            requestTime: '$context.requestTime',
            routeKey: '$context.routeKey',
            status: '$context.status',
            protocol: '$context.protocol',
            responseLength: '$context.responseLength',
            integrationLatency: '$context.integrationLatency',
            integrationError: '$context.integrationErrorMessage',
            authorizerError: '$context.authorizer.error',
          }),
        ),
      },
    });
    return api;
  }

  /** Code of every function, from one esbuild run (or a stand-in when this synth skips bundling). */
  private bundles(table: readonly RouteDef[]): (name: string) => lambda.Code {
    if (!this.bundlingRequired) {
      // A Code per call: a Code binds to one stack, and the WebStack's tenant job uses one too.
      return () => lambda.Code.fromAsset(unbundledDir());
    }
    const built = buildLambdaBundles(lambdaBundleSpecs(table, jobs));
    return (name) => lambda.Code.fromAsset(built.get(name)!.dir);
  }

  private addRoutes(
    apiFunctions: readonly FunctionDef[],
    resources: ApiResources,
    code: (name: string) => lambda.Code,
  ): void {
    // Access tokens carry `client_id`, not `aud`; the HTTP API JWT authorizer checks
    // client_id against the audience for access tokens, so the audience is the client id.
    // (The core is global-partition only, see lib/app-config.ts, hence amazonaws.com.)
    const jwt = new HttpJwtAuthorizer(
      'CognitoJwt',
      `https://cognito-idp.${this.region}.amazonaws.com/${this.userPool.userPoolId}`,
      { jwtAudience: [this.userPoolClient.userPoolClientId], identitySource: ['$request.header.Authorization'] },
    );

    for (const def of apiFunctions) {
      const id = `Api${handlerConstructId(def.name)}`;
      const fn = new ApiFunction(this, id, {
        name: `API ${def.name} (${def.routes.length} routes)`,
        code: code(apiBundleName(def.name)),
        resources,
        timeout: Duration.seconds(def.timeoutSeconds),
        memorySize: def.memoryMb,
      }).bind(def.access, def.invokes);
      this.routeFunctions.set(def.name, fn);

      // One invoke permission per function for this API (the dispatcher refuses route keys it
      // does not serve), instead of one per route: 1 resource, not one per route.
      const integration = new HttpLambdaIntegration(`${id}Integration`, fn.function, { scopePermissionToRoute: false });
      for (const route of def.routes) {
        const [added] = this.httpApi.addRoutes({
          path: `${API_PREFIX}${route.path}`,
          methods: [apigwv2.HttpMethod[route.method]],
          integration,
          authorizer: route.auth === 'jwt' ? jwt : undefined,
        });
        // 'key' routes have no HTTP API authorizer either; their handler verifies the API key (keyRoute).
        if (route.auth !== 'jwt' && added)
          acknowledge(added, 'AwsSolutions-APIG4', route.auth === 'key' ? 'apiKeyRoute' : 'publicRoute');
      }
    }
  }

  private addJobs(resources: ApiResources, code: (name: string) => lambda.Code): Record<string, lambda.IFunction> {
    const onDemand: Record<string, lambda.IFunction> = {};
    // filled by this loop: a job that starts other jobs is bound to them once all exist (below)
    const jobResources: ApiResources = { ...resources, jobFunctions: onDemand };
    const starting: [ApiFunction, readonly string[]][] = [];
    // jobs of the WebStack (beside the distribution they manage) are not made here.
    for (const job of jobs.filter((j) => (j.stack ?? 'core') === 'core')) {
      const id = `Job${handlerConstructId(job.name)}`;
      const fn = new ApiFunction(this, id, {
        name: `job ${job.name}`,
        code: code(jobBundleName(job.name)),
        resources: jobResources,
        timeout: Duration.seconds(job.timeoutSeconds ?? JOB_DEFAULT_TIMEOUT_SECONDS),
        memorySize: job.memoryMb,
        ...(job.architecture ? { architecture: job.architecture } : {}),
        description: `SendBridge job ${job.name} (${job.schedule ?? 'on demand'})`,
      }).bind(job.access.filter((a) => a !== 'jobs:invoke'));
      if (job.access.includes('jobs:invoke')) starting.push([fn, job.invokes ?? []]);
      if (job.continues) fn.allowSelfInvoke();
      this.jobFunctions.set(job.name, fn);
      // GuardDuty's malware scan results (of every storage region, forwarded to this
      // region's default bus by the StorageStacks) start the job, with EventBridge's retries.
      if (job.trigger === 'guardduty-scan-results') {
        new events.Rule(this, `${id}ScanResults`, {
          description: `SendBridge job ${job.name}: GuardDuty Malware Protection scan results`,
          eventPattern: { source: [GUARDDUTY_SOURCE], detailType: [GUARDDUTY_DETAIL_TYPE] },
          targets: [new targets.LambdaFunction(fn.function, { retryAttempts: 8, maxEventAge: Duration.hours(6) })],
        });
      }
      // CloudTrail's GetObject data events of every storage region's buckets (forwarded to this
      // region's default bus by the StorageStacks) start the deliveries job, with retries.
      if (job.trigger === 'cloudtrail-get-object') {
        new events.Rule(this, `${id}GetObjectEvents`, {
          description: `SendBridge job ${job.name}: GetObject data events of the buckets`,
          eventPattern: getObjectPattern(
            resources.regionBuckets.flatMap((b) => [b.transfers.bucketName, b.anon.bucketName]),
          ),
          targets: [new targets.LambdaFunction(fn.function, { retryAttempts: 8, maxEventAge: Duration.hours(6) })],
        });
      }
      // routes may start any job; a scheduled one also runs on its schedule (complete-upload: both)
      onDemand[job.name] = fn.function;
      if (!job.schedule) continue;
      new events.Rule(this, `${id}Schedule`, {
        description: `SendBridge job ${job.name}`,
        schedule: events.Schedule.expression(job.schedule),
        targets: [new targets.LambdaFunction(fn.function, { retryAttempts: 2, maxEventAge: Duration.hours(1) })],
      });
    }
    for (const [fn, invokes] of starting) fn.bind(['jobs:invoke'], invokes);
    return onDemand;
  }
}
