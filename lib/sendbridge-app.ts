import { Annotations, Tags, type App } from 'aws-cdk-lib';
import type { RegionId } from '../functions/domain/regions';
import type { RouteDef } from '../functions/routes';
import { FALLBACK_BUCKET_ORIGINS, UNCONFIGURED_APP_ORIGIN, readAppConfig, type AppConfig } from './app-config';
import { CoreStack } from './core-stack';
import { REGION_CONFIG } from './region-config';
import { StorageStack } from './storage-stack';
import { WebStack } from './web-stack';

/** Cross-region references read the producer's outputs with Fn::GetStackOutput: no custom resources. */
export const CROSS_STACK_REFERENCES_FLAG = '@aws-cdk/core:defaultCrossStackReferences';

export const STACK_PREFIX = 'SendBridge';
/** China-partition stacks get their own prefix so `cdk deploy 'SendBridge-*'` never picks them. */
export const CHINA_STACK_PREFIX = 'SendBridgeCN';

export interface SendBridgeStacks {
  readonly config: AppConfig;
  readonly storage: ReadonlyMap<RegionId, StorageStack>;
  readonly chinaStorage: ReadonlyMap<RegionId, StorageStack>;
  readonly core: CoreStack;
  readonly web: WebStack;
}

export interface SendBridgeOptions {
  /**
   * Vite build output the WebStack uploads.
   * @default <repo>/frontend/dist
   */
  readonly appDistDir?: string;
  /**
   * The HTTP API's routes (infra tests pass a generated table to check the stacks' headroom).
   * @default routes of functions/routes.ts
   */
  readonly routes?: readonly RouteDef[];
}

const titleCase = (s: string) => s[0]!.toUpperCase() + s.slice(1);

/**
 * Builds the whole app from CDK context: one StorageStack per storage region, then CoreStack
 * and WebStack in the home region (architecture §2). Used by bin/app.ts and by test/infra.
 */
export function createSendBridge(app: App, options: SendBridgeOptions = {}): SendBridgeStacks {
  if (app.node.tryGetContext(CROSS_STACK_REFERENCES_FLAG) === undefined)
    app.node.setContext(CROSS_STACK_REFERENCES_FLAG, 'weak');
  const config = readAppConfig(app);
  Tags.of(app).add('project', 'SendBridge');
  const bucketOrigins = config.appOriginsConfigured ? config.appOrigins : FALLBACK_BUCKET_ORIGINS;

  const storage = new Map<RegionId, StorageStack>();
  for (const regionId of config.regions) {
    storage.set(
      regionId,
      new StorageStack(app, `${STACK_PREFIX}-Storage-${titleCase(regionId)}`, {
        description: `SendBridge storage region ${regionId}: transfer and anonymous upload buckets`,
        env: { account: config.account, region: REGION_CONFIG[regionId].awsRegion },
        crossRegionReferences: true,
        regionId,
        allowedOrigins: bucketOrigins,
        homeRegion: config.homeRegion,
      }),
    );
  }

  const chinaStorage = new Map<RegionId, StorageStack>();
  for (const regionId of config.chinaRegions) {
    const stack = new StorageStack(app, `${CHINA_STACK_PREFIX}-Storage-${titleCase(regionId)}`, {
      description: `SendBridge storage region ${regionId} (AWS China partition, standalone)`,
      env: { account: config.chinaAccount, region: REGION_CONFIG[regionId].awsRegion },
      regionId,
      allowedOrigins: bucketOrigins,
    });
    Annotations.of(stack).addWarningV2(
      'sendbridge:china:standalone',
      `${regionId} is deployed standalone in aws-cn: the API (global partition) has no IAM access to it, so it is not in REGION_BUCKETS. Deploy it with China credentials (docs/deploy.md).`,
    );
    chinaStorage.set(regionId, stack);
  }

  const home = { account: config.account, region: config.homeRegion };
  const core = new CoreStack(app, `${STACK_PREFIX}-Core`, {
    description: 'SendBridge core: table, user pool, mail, HTTP API, functions and jobs',
    env: home,
    crossRegionReferences: true,
    regionBuckets: [...storage.values()].map((s) => ({
      regionId: s.regionId,
      awsRegion: REGION_CONFIG[s.regionId].awsRegion,
      transfers: s.transfersBucket,
      anon: s.anonBucket,
    })),
    mailFrom: config.mailFrom,
    appOrigin: config.appOrigins[0] ?? UNCONFIGURED_APP_ORIGIN,
    corsOrigins: config.appOrigins,
    routes: options.routes,
    payments: config.payments,
    ...(config.customDomainTarget ? { customDomainTarget: config.customDomainTarget } : {}),
    ...(config.abuseReportTo ? { abuseReportTo: config.abuseReportTo } : {}),
    ...(config.originVerifyVersion ? { originVerifyVersion: config.originVerifyVersion } : {}),
  });
  if (!config.appOriginsConfigured) {
    Annotations.of(core).addWarningV2(
      'sendbridge:config:app-origin',
      `No -c appOrigins (or -c domainName): APP_ORIGIN is ${UNCONFIGURED_APP_ORIGIN} (links in mail are broken) and the buckets accept CORS from ${FALLBACK_BUCKET_ORIGINS.join(', ')}. After the first deploy, redeploy with -c appOrigins=https://<DistributionDomainName>.`,
    );
  }
  if (!config.mailFromConfigured) {
    Annotations.of(core).addWarningV2(
      'sendbridge:config:mail-from',
      `No -c mailFrom: MAIL_FROM is '${config.mailFrom}'. Set it to an address of an SES-verified identity in ${config.homeRegion}.`,
    );
  }

  const web = new WebStack(app, `${STACK_PREFIX}-Web`, {
    description: 'SendBridge web: CloudFront (app from S3 + /api/* to the HTTP API)',
    env: home,
    crossRegionReferences: true,
    apiDomainName: core.apiDomainName,
    originVerify: core.originVerify,
    ...(config.originVerifyVersion ? { originVerifyVersion: config.originVerifyVersion } : {}),
    domainName: config.domainName,
    certificateArn: config.certificateArn,
    appDistDir: options.appDistDir,
    tenantJobs: { resources: core.apiResources, code: core.codeFor },
  });

  return { config, storage, chinaStorage, core, web };
}
