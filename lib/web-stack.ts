import * as fs from 'node:fs';
import * as path from 'node:path';
import { Annotations, CfnOutput, Duration, Stack, type StackProps } from 'aws-cdk-lib';
import * as acm from 'aws-cdk-lib/aws-certificatemanager';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as s3deploy from 'aws-cdk-lib/aws-s3-deployment';
import type { Construct } from 'constructs';
import { CONTENT_SECURITY_POLICY, PERMISSIONS_POLICY, PRIVATE_PAGE_HEADERS } from '../frontend/csp';
import { ROBOTS_DISALLOW } from '../frontend/src/app/seo-routes';
import { SPA_REWRITE_FUNCTION } from '../frontend/prerendered-pages';
import { API_PREFIX, ORIGIN_VERIFY_HEADER } from '../functions/routes';
import type * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { PrivateBucket } from './constructs/private-bucket';
import { ApiFunction, type ApiResources } from './constructs/api-function';
import { jobs } from '../functions/routes';
import { jobBundleName } from './lambda-bundles';
import { acknowledge, acknowledgeBucketDeploymentHandler } from './nag/acknowledge';
import { originVerifyValue } from './origin-verify';
import { REPO_ROOT } from './paths';

export interface WebStackProps extends StackProps {
  /** `{apiId}.execute-api.{region}.amazonaws.com` of the HTTP API (CoreStack). */
  readonly apiDomainName: string;
  /** CoreStack's origin-verify secret: CloudFront sends its value as `x-origin-verify` on `/api/*`. */
  readonly originVerify: secretsmanager.ISecret;
  /** the secret's version to send (`-c originVerifyVersion`), else its current value */
  readonly originVerifyVersion?: string;
  /** Custom domain of the distribution; requires `certificateArn` (ACM, us-east-1). */
  readonly domainName?: string;
  readonly certificateArn?: string;
  /**
   * Vite build output to upload; skipped (with a warning) when it has no index.html.
   * @default <repo>/frontend/dist
   */
  readonly appDistDir?: string;
  /**
   * what the tenant job needs from the CoreStack (its resources and bundled code); without
   * it no multi-tenant distribution is made (infra tests of other stacks).
   */
  readonly tenantJobs?: { readonly resources: ApiResources; readonly code: (name: string) => lambda.Code };
}

/** Viewer headers the API reads for the country/city of a download (architecture §1). */
export const VIEWER_LOCATION_HEADERS = ['CloudFront-Viewer-Country', 'CloudFront-Viewer-City'] as const;

/**
 * SPA fallback on the app behaviour only (frontend/prerendered-pages.ts): a path whose last
 * segment has no dot is a client-side route and gets /index.html, or the prerendered page of
 * its address in the visitor's language. Unlike distribution-wide 403/404 error responses this
 * never touches /api/*, so API 404s stay 404.
 */
export { SPA_REWRITE_FUNCTION };

/**
 * CloudFront path patterns of the private pages (download, request, invite, extension,
 * dashboard pages, the reset link), from the route table (frontend/src/app/seo-routes.ts): a
 * folder `/r/` becomes `/r/*`, a page `/dash` becomes `/dash` and `/dash/*`. Their behaviours add
 * `X-Robots-Tag: noindex` and `Referrer-Policy: no-referrer`. sitemap.xml and robots.txt have a
 * dot in their last segment, so the SPA rewrite serves them from the bucket as they are.
 */
export function privatePathPatterns(disallow: readonly string[] = ROBOTS_DISALLOW): string[] {
  return disallow.flatMap((p) => (p.endsWith('/') ? [`${p}*`] : [p, `${p}/*`]));
}

/**
 * The one origin of the product (architecture §1): CloudFront serves the built app from a
 * private bucket (OAC) and sends /api/* to the HTTP API, so the refresh cookie is first-party
 * and the app needs no CORS for its own calls.
 */
export class WebStack extends Stack {
  readonly appBucket: s3.Bucket;
  readonly distribution: cloudfront.Distribution;
  /** the multi-tenant distribution (SaaS Manager) serving users' verified custom domains, one tenant each */
  readonly tenantDistribution?: cloudfront.Distribution;
  readonly connectionGroup?: cloudfront.CfnConnectionGroup;
  readonly tenantJobFunctions = new Map<string, ApiFunction>();

  constructor(scope: Construct, id: string, props: WebStackProps) {
    super(scope, id, props);

    // ACLs stay enabled here only because CloudFront standard logging delivers with an ACL.
    const logs = new PrivateBucket(this, 'Logs', {
      objectOwnership: s3.ObjectOwnership.BUCKET_OWNER_PREFERRED,
      expireAfterDays: 90,
    });
    acknowledge(logs, 'AwsSolutions-S1', 'accessLogBucket');

    this.appBucket = new PrivateBucket(this, 'AppBucket', {
      serverAccessLogsBucket: logs,
      serverAccessLogsPrefix: 's3/',
    });

    // One policy for the app and /api/*: API answers get nosniff here too, beside the one the
    // functions send themselves (functions/lib/http.ts).
    const securityHeaders = new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
      comment: 'SendBridge security headers',
      securityHeadersBehavior: {
        strictTransportSecurity: { accessControlMaxAge: Duration.days(730), includeSubdomains: true, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: {
          referrerPolicy: cloudfront.HeadersReferrerPolicy.STRICT_ORIGIN_WHEN_CROSS_ORIGIN,
          override: true,
        },
        contentSecurityPolicy: { contentSecurityPolicy: CONTENT_SECURITY_POLICY, override: true },
      },
      customHeadersBehavior: {
        customHeaders: [{ header: 'Permissions-Policy', value: PERMISSIONS_POLICY, override: true }],
      },
    });

    // the same policy plus noindex and no referrer, for the private pages' behaviours
    const privateHeaders = new cloudfront.ResponseHeadersPolicy(this, 'PrivatePageHeaders', {
      comment: 'SendBridge private pages: security headers, noindex, no referrer',
      securityHeadersBehavior: {
        strictTransportSecurity: { accessControlMaxAge: Duration.days(730), includeSubdomains: true, override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.NO_REFERRER, override: true },
        contentSecurityPolicy: { contentSecurityPolicy: CONTENT_SECURITY_POLICY, override: true },
      },
      customHeadersBehavior: {
        customHeaders: [
          { header: 'Permissions-Policy', value: PERMISSIONS_POLICY, override: true },
          { header: 'X-Robots-Tag', value: PRIVATE_PAGE_HEADERS['x-robots-tag'], override: true },
        ],
      },
    });

    // The Authorization header can only reach an origin through the cache policy, and a cache
    // policy may only name headers when caching is possible (max TTL > 0). Default TTL 0 means
    // nothing is cached unless the API says so, and the key holds everything identity-bearing.
    const apiCachePolicy = new cloudfront.CachePolicy(this, 'ApiCachePolicy', {
      comment: 'SendBridge /api/*: no caching unless the API sends max-age; identity in the key',
      minTtl: Duration.seconds(0),
      defaultTtl: Duration.seconds(0),
      maxTtl: Duration.seconds(1),
      headerBehavior: cloudfront.CacheHeaderBehavior.allowList('Authorization', ...VIEWER_LOCATION_HEADERS),
      cookieBehavior: cloudfront.CacheCookieBehavior.all(),
      queryStringBehavior: cloudfront.CacheQueryStringBehavior.all(),
      enableAcceptEncodingGzip: true,
      enableAcceptEncodingBrotli: true,
    });

    const spaRewrite = new cloudfront.Function(this, 'SpaRewrite', {
      comment: 'SendBridge: client-side routes -> /index.html',
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      code: cloudfront.FunctionCode.fromInline(SPA_REWRITE_FUNCTION),
    });

    // A fresh origin per distribution: each binds its own OAC and bucket policy statement.
    const behaviours = (): Pick<cloudfront.DistributionProps, 'defaultBehavior' | 'additionalBehaviors'> => {
      const app = origins.S3BucketOrigin.withOriginAccessControl(this.appBucket);
      const appBehaviour = {
        origin: app,
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        cachePolicy: cloudfront.CachePolicy.CACHING_OPTIMIZED,
        responseHeadersPolicy: securityHeaders,
        functionAssociations: [{ eventType: cloudfront.FunctionEventType.VIEWER_REQUEST, function: spaRewrite }],
        compress: true,
      };
      return {
        defaultBehavior: appBehaviour,
        additionalBehaviors: {
          [`${API_PREFIX}/*`]: {
            origin: new origins.HttpOrigin(props.apiDomainName, {
              protocolPolicy: cloudfront.OriginProtocolPolicy.HTTPS_ONLY,
              originSslProtocols: [cloudfront.OriginSslPolicy.TLS_V1_2],
              // The functions trust CloudFront-Viewer-Address only beside it (functions/lib/http.ts).
              customHeaders: {
                [ORIGIN_VERIFY_HEADER]: originVerifyValue(props.originVerify, props.originVerifyVersion),
              },
            }),
            viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
            allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
            cachePolicy: apiCachePolicy,
            // Every viewer header but Host (API Gateway routes on its own host name); the viewer
            // location headers come in through the cache policy above.
            originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
            responseHeadersPolicy: securityHeaders,
            compress: true,
          },
          ...Object.fromEntries(
            privatePathPatterns().map((pattern) => [
              pattern,
              { ...appBehaviour, responseHeadersPolicy: privateHeaders },
            ]),
          ),
        },
      };
    };

    const customDomain = props.domainName && props.certificateArn;
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'SendBridge app and API',
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      priceClass: cloudfront.PriceClass.PRICE_CLASS_ALL,
      enableLogging: true,
      logBucket: logs,
      logFilePrefix: 'cloudfront/',
      ...(customDomain
        ? {
            domainNames: [props.domainName!],
            certificate: acm.Certificate.fromCertificateArn(this, 'Certificate', props.certificateArn!),
            minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
          }
        : {}),
      ...behaviours(),
    });
    acknowledge(this.distribution, 'AwsSolutions-CFR1', 'noGeoRestriction');
    acknowledge(this.distribution, 'AwsSolutions-CFR2', 'noWaf');
    if (!customDomain) acknowledge(this.distribution, 'AwsSolutions-CFR4', 'defaultCertificate');

    if (props.tenantJobs) {
      const tenants = this.addTenantDistribution(behaviours(), logs, props.tenantJobs);
      this.tenantDistribution = tenants.distribution;
      this.connectionGroup = tenants.connectionGroup;
    }

    this.deployApp(props.appDistDir ?? path.join(REPO_ROOT, 'frontend', 'dist'));

    new CfnOutput(this, 'AppUrl', { value: `https://${props.domainName ?? this.distribution.distributionDomainName}` });
    new CfnOutput(this, 'DistributionDomainName', { value: this.distribution.distributionDomainName });
    new CfnOutput(this, 'DistributionId', { value: this.distribution.distributionId });
    new CfnOutput(this, 'AppBucketName', { value: this.appBucket.bucketName });
  }

  /**
   * users' custom domains. A multi-tenant distribution (CloudFront SaaS Manager,
   * ConnectionMode tenant-only) with the main distribution's origins and behaviours, a connection
   * group whose routing endpoint users' CNAMEs point at, and the tenant job (functions/jobs/
   * domain-tenants.ts) that makes one tenant per verified domain with a CloudFront-managed
   * certificate and deletes it on release, granted the tenant actions on this distribution only.
   */
  private addTenantDistribution(
    shared: Pick<cloudfront.DistributionProps, 'defaultBehavior' | 'additionalBehaviors'>,
    logs: s3.IBucket,
    tenantJobs: NonNullable<WebStackProps['tenantJobs']>,
  ): { distribution: cloudfront.Distribution; connectionGroup: cloudfront.CfnConnectionGroup } {
    const distribution = new cloudfront.Distribution(this, 'TenantDistribution', {
      comment: 'SendBridge custom domains (multi-tenant)',
      defaultRootObject: 'index.html',
      httpVersion: cloudfront.HttpVersion.HTTP2_AND_3,
      enableLogging: true,
      logBucket: logs,
      logFilePrefix: 'cloudfront-tenants/',
      ...shared,
    });
    const cfn = distribution.node.defaultChild as cloudfront.CfnDistribution;
    cfn.addPropertyOverride('DistributionConfig.ConnectionMode', 'tenant-only');
    // Domains, certificates, IPv6 and price class belong to tenants and connection groups here.
    for (const unsupported of ['PriceClass', 'IPV6Enabled', 'Aliases', 'ViewerCertificate'])
      cfn.addPropertyDeletionOverride(`DistributionConfig.${unsupported}`);
    acknowledge(distribution, 'AwsSolutions-CFR1', 'noGeoRestriction');
    acknowledge(distribution, 'AwsSolutions-CFR2', 'noWaf');
    acknowledge(distribution, 'AwsSolutions-CFR4', 'tenantCertificates');

    const connectionGroup = new cloudfront.CfnConnectionGroup(this, 'TenantConnectionGroup', {
      name: `${this.stackName}-custom-domains`.slice(0, 64),
      enabled: true,
      ipv6Enabled: true,
    });

    const resources: ApiResources = {
      ...tenantJobs.resources,
      tenants: {
        distributionId: distribution.distributionId,
        connectionGroupId: connectionGroup.attrId,
        connectionGroupArn: connectionGroup.attrArn,
      },
    };
    for (const job of jobs.filter((j) => j.stack === 'web')) {
      const id = `Job${job.name
        .split('-')
        .map((p) => p[0]!.toUpperCase() + p.slice(1))
        .join('')}`;
      const fn = new ApiFunction(this, id, {
        name: `job ${job.name}`,
        code: tenantJobs.code(jobBundleName(job.name)),
        resources,
        timeout: Duration.seconds(job.timeoutSeconds ?? 60),
        memorySize: job.memoryMb,
        description: `SendBridge job ${job.name} (${job.schedule ?? 'on demand'})`,
      }).bind(job.access);
      this.tenantJobFunctions.set(job.name, fn);
      if (job.schedule) {
        new events.Rule(this, `${id}Schedule`, {
          description: `SendBridge job ${job.name}`,
          schedule: events.Schedule.expression(job.schedule),
          targets: [new targets.LambdaFunction(fn.function, { retryAttempts: 2, maxEventAge: Duration.hours(1) })],
        });
      }
    }

    new CfnOutput(this, 'TenantDistributionId', { value: distribution.distributionId });
    new CfnOutput(this, 'CustomDomainTarget', {
      value: connectionGroup.attrRoutingEndpoint,
      description:
        'Redeploy with -c customDomainTarget=<this value>: the CNAME target users are shown (docs/deploy.md)',
    });
    return { distribution, connectionGroup };
  }

  /**
   * Hashed build assets are immutable; everything else (index.html, locales, icons) revalidates.
   * No pruning: a tab still running the previous build can lazy-load its old chunks.
   */
  private deployApp(distDir: string): void {
    if (!fs.existsSync(path.join(distDir, 'index.html'))) {
      Annotations.of(this).addWarningV2(
        'sendbridge:web:no-build',
        `${path.relative(REPO_ROOT, distDir) || distDir}/index.html not found: the app bucket is created empty. Run \`npm run build:web\` before \`cdk deploy\`.`,
      );
      return;
    }
    const assets = new s3deploy.BucketDeployment(this, 'DeployAssets', {
      sources: [s3deploy.Source.asset(distDir, { exclude: ['*', '!assets', '!assets/**'] })],
      destinationBucket: this.appBucket,
      prune: false,
      cacheControl: [
        s3deploy.CacheControl.setPublic(),
        s3deploy.CacheControl.maxAge(Duration.days(365)),
        s3deploy.CacheControl.immutable(),
      ],
      memoryLimit: 512,
    });
    const pages = new s3deploy.BucketDeployment(this, 'DeployPages', {
      sources: [s3deploy.Source.asset(distDir, { exclude: ['assets', 'assets/**'] })],
      destinationBucket: this.appBucket,
      prune: false,
      cacheControl: [s3deploy.CacheControl.noCache()],
      distribution: this.distribution,
      distributionPaths: ['/*'],
      memoryLimit: 512,
    });
    // index.html must not point at chunks that are not uploaded yet.
    pages.node.addDependency(assets);
    acknowledgeBucketDeploymentHandler(this);
  }
}
