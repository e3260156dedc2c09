import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Annotations, Match, type Template } from 'aws-cdk-lib/assertions';
import {
  AWS_STORAGE_SOURCES,
  CONTENT_SECURITY_POLICY,
  contentSecurityPolicy,
  PERMISSIONS_POLICY,
} from '../../frontend/csp';
import { privatePathPatterns, SPA_REWRITE_FUNCTION, VIEWER_LOCATION_HEADERS } from '../../lib/web-stack';
import { isPrivatePath } from '../../frontend/src/app/seo-routes';
import { resourcesOf, synthSendBridge, type TestApp } from './synth';

/** id of the managed origin request policy AllViewerExceptHostHeader */
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';

function fakeBuild(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sendbridge-dist-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  return dir;
}

let t: TestApp;
let web: Template;

beforeAll(() => {
  t = synthSendBridge({}, { appDistDir: fakeBuild() });
  web = t.template(t.web);
});

type Behavior = Record<string, unknown> & { PathPattern?: string };
const distributionConfig = () =>
  Object.values(resourcesOf(web, 'AWS::CloudFront::Distribution'))[0]!.Properties!.DistributionConfig as {
    DefaultCacheBehavior: Behavior;
    CacheBehaviors: Behavior[];
    Origins: Array<Record<string, unknown>>;
    Logging?: unknown;
  };

describe('WebStack', () => {
  it('serves the app from the private bucket through origin access control', () => {
    const config = distributionConfig();
    const s3Origin = config.Origins.find((o) => o.S3OriginConfig)!;
    expect(s3Origin.OriginAccessControlId).toEqual({
      'Fn::GetAtt': [expect.stringMatching(/OriginAccessControl/), 'Id'],
    });
    web.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: {
        OriginAccessControlOriginType: 's3',
        SigningBehavior: 'always',
        SigningProtocol: 'sigv4',
      },
    });
    expect(config.DefaultCacheBehavior).toMatchObject({ ViewerProtocolPolicy: 'redirect-to-https' });
    expect(config.Logging).toBeDefined();
  });

  it('routes /api/* to the HTTP API uncached, with all methods', () => {
    const config = distributionConfig();
    const api = config.CacheBehaviors.find((b) => b.PathPattern === '/api/*')!;
    expect(api).toMatchObject({
      AllowedMethods: expect.arrayContaining(['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE']),
      OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
      ViewerProtocolPolicy: 'https-only',
    });
    expect(api.FunctionAssociations).toBeUndefined();
    const origin = config.Origins.find((o) => o.Id === api.TargetOriginId)!;
    expect(origin.CustomOriginConfig).toEqual({ OriginProtocolPolicy: 'https-only', OriginSSLProtocols: ['TLSv1.2'] });
    expect(JSON.stringify(origin.DomainName)).toContain('"StackName":"SendBridge-Core"');

    const policyId = (api.CachePolicyId as { Ref: string }).Ref;
    const policy = resourcesOf(web, 'AWS::CloudFront::CachePolicy')[policyId]!.Properties!.CachePolicyConfig as Record<
      string,
      unknown
    >;
    expect(policy).toMatchObject({ DefaultTTL: 0, MinTTL: 0 });
    expect(policy.MaxTTL as number).toBeLessThanOrEqual(1);
  });

  it('forwards the Authorization, viewer-country and viewer-city headers, cookies and query strings to the API', () => {
    const api = distributionConfig().CacheBehaviors.find((b) => b.PathPattern === '/api/*')!;
    const policy = resourcesOf(web, 'AWS::CloudFront::CachePolicy')[(api.CachePolicyId as { Ref: string }).Ref]!
      .Properties!.CachePolicyConfig as {
      ParametersInCacheKeyAndForwardedToOrigin: Record<string, { [k: string]: unknown }>;
    };
    const params = policy.ParametersInCacheKeyAndForwardedToOrigin;
    expect(params.HeadersConfig).toEqual({
      HeaderBehavior: 'whitelist',
      Headers: ['Authorization', ...VIEWER_LOCATION_HEADERS],
    });
    expect(VIEWER_LOCATION_HEADERS).toContain('CloudFront-Viewer-Country');
    expect(params.CookiesConfig).toEqual({ CookieBehavior: 'all' });
    expect(params.QueryStringsConfig).toEqual({ QueryStringBehavior: 'all' });
  });

  it('rewrites client-side routes to /index.html on the app behaviour only', () => {
    const config = distributionConfig();
    expect(config.DefaultCacheBehavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [expect.any(String), 'FunctionARN'] } },
    ]);
    web.hasResourceProperties('AWS::CloudFront::Function', {
      FunctionConfig: Match.objectLike({ Runtime: 'cloudfront-js-2.0' }),
    });

    type Request = {
      uri: string;
      querystring?: Record<string, { value: string }>;
      headers?: Record<string, { value: string }>;
    };
    const rewrite = new Function(`${SPA_REWRITE_FUNCTION}; return handler;`)() as (e: { request: Request }) => Request;
    const uri = (u: string) => rewrite({ request: { uri: u } }).uri;
    // the prerendered home in the visitor's language: ?lng= first, then Accept-Language by q, else English
    expect(uri('/')).toBe('/prerendered/home.en.html');
    const home = (acceptLanguage: string, lng?: string) =>
      rewrite({
        request: {
          uri: '/',
          headers: { 'accept-language': { value: acceptLanguage } },
          ...(lng ? { querystring: { lng: { value: lng } } } : {}),
        },
      }).uri;
    expect(home('fr-FR,fr;q=0.9,en;q=0.8')).toBe('/prerendered/home.fr.html');
    expect(home('nl-NL,nl;q=0.9,de;q=0.7,en;q=0.8')).toBe('/prerendered/home.en.html');
    expect(home('zh-TW')).toBe('/prerendered/home.zh.html');
    expect(home('pt-BR,*;q=0.5')).toBe('/prerendered/home.en.html');
    expect(home('fr-FR', 'ja')).toBe('/prerendered/home.ja.html');
    expect(home('fr-FR', 'xx')).toBe('/prerendered/home.fr.html');
    expect(rewrite({ request: { uri: '/pricing', headers: { 'accept-language': { value: 'de' } } } }).uri).toBe(
      '/index.html',
    );
    // the download page's shell (header and footer around the loading state), in the same language
    expect(uri('/w/AbC1234')).toBe('/prerendered/download.en.html');
    expect(uri('/downloads/AbC1234/r1')).toBe('/prerendered/download.en.html');
    expect(rewrite({ request: { uri: '/d/AbC1234', headers: { 'accept-language': { value: 'ko-KR' } } } }).uri).toBe(
      '/prerendered/download.ko.html',
    );
    expect(uri('/dash')).toBe('/index.html');
    expect(uri('/404/')).toBe('/index.html');
    expect(uri('/updatepassword')).toBe('/index.html');
    expect(uri('/assets/index-abc123.js')).toBe('/assets/index-abc123.js');
    expect(uri('/favicon.svg')).toBe('/favicon.svg');
    // the build's robots.txt and sitemap.xml are served as files, never as the app
    expect(uri('/robots.txt')).toBe('/robots.txt');
    expect(uri('/sitemap.xml')).toBe('/sitemap.xml');
    // No distribution-wide error pages: API 403/404 must reach the client unchanged.
    expect(JSON.stringify(distributionConfig())).not.toContain('CustomErrorResponses');
  });

  it('sends security headers on every behaviour', () => {
    const config = distributionConfig();
    const policyRef = config.DefaultCacheBehavior.ResponseHeadersPolicyId;
    // the private pages' behaviours have a policy of their own (the same plus noindex, no referrer)
    for (const b of config.CacheBehaviors.filter((c) => !privatePathPatterns().includes(c.PathPattern!)))
      expect(b.ResponseHeadersPolicyId).toEqual(policyRef);
    web.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: {
          StrictTransportSecurity: Match.objectLike({
            AccessControlMaxAgeSec: Match.anyValue(),
            IncludeSubdomains: true,
          }),
          ContentTypeOptions: { Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
          ReferrerPolicy: { ReferrerPolicy: 'strict-origin-when-cross-origin', Override: true },
          ContentSecurityPolicy: { ContentSecurityPolicy: CONTENT_SECURITY_POLICY, Override: true },
        },
      }),
    });
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
    expect(CONTENT_SECURITY_POLICY).toMatch(/connect-src [^;]*https:\/\/\*\.amazonaws\.com/);
  });

  it('sends exactly the CSP of frontend/csp.ts, the one the local app servers send: no inline script, no eval', () => {
    const policies = Object.values(resourcesOf(web, 'AWS::CloudFront::ResponseHeadersPolicy')).map(
      (p) =>
        (
          p.Properties!.ResponseHeadersPolicyConfig as {
            SecurityHeadersConfig: { ContentSecurityPolicy: { ContentSecurityPolicy: string } };
          }
        ).SecurityHeadersConfig,
    );
    // the app's and the private pages', with the one CSP
    expect(policies).toHaveLength(2);
    expect(policies[1]!.ContentSecurityPolicy.ContentSecurityPolicy).toBe(
      policies[0]!.ContentSecurityPolicy.ContentSecurityPolicy,
    );
    const csp = policies[0]!.ContentSecurityPolicy.ContentSecurityPolicy;
    expect(csp).toBe(CONTENT_SECURITY_POLICY);
    expect(csp).toBe(contentSecurityPolicy({ storage: AWS_STORAGE_SOURCES }));
    const scriptSrc = csp.split('; ').find((d) => d.startsWith('script-src '))!;
    expect(scriptSrc).not.toMatch(/'unsafe-inline'|'unsafe-eval'|'nonce-|'sha\d+-/);
    // 'wasm-unsafe-eval' (WebAssembly compilation only, for an encrypted transfer's Argon2id) is no 'unsafe-eval'
    expect(csp.split(/[\s;]+/u)).not.toContain("'unsafe-eval'");
    expect(scriptSrc.split(' ')).toContain("'wasm-unsafe-eval'");
  });

  it('the private pages (download, request, invite, extension, dashboard, reset link) get noindex and no referrer, still through the SPA rewrite', () => {
    const config = distributionConfig();
    const patterns = privatePathPatterns();
    expect(patterns).toEqual(
      expect.arrayContaining([
        '/downloads/*',
        '/d/*',
        '/w/*',
        '/r/*',
        '/invite/*',
        '/extension/*',
        '/dash',
        '/dash/*',
        '/updatepassword',
      ]),
    );
    // every pattern covers private addresses only: /r/* is not /roadmap, /d/* is not /dash
    for (const p of patterns) expect(isPrivatePath(p.replace('*', 'x1')), p).toBe(true);
    for (const pattern of patterns) {
      const b = config.CacheBehaviors.find((c) => c.PathPattern === pattern)!;
      expect(b, pattern).toBeDefined();
      expect(b.TargetOriginId).toEqual(config.DefaultCacheBehavior.TargetOriginId);
      expect(b.FunctionAssociations).toEqual(config.DefaultCacheBehavior.FunctionAssociations);
      expect(b.ResponseHeadersPolicyId).not.toEqual(config.DefaultCacheBehavior.ResponseHeadersPolicyId);
      const policyId = (b.ResponseHeadersPolicyId as { Ref: string }).Ref;
      const policy = resourcesOf(web, 'AWS::CloudFront::ResponseHeadersPolicy')[policyId]!.Properties!
        .ResponseHeadersPolicyConfig as {
        SecurityHeadersConfig: {
          ReferrerPolicy: { ReferrerPolicy: string };
          ContentSecurityPolicy: { ContentSecurityPolicy: string };
        };
        CustomHeadersConfig: { Items: { Header: string; Value: string }[] };
      };
      expect(policy.SecurityHeadersConfig.ReferrerPolicy.ReferrerPolicy).toBe('no-referrer');
      expect(policy.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy).toBe(CONTENT_SECURITY_POLICY);
      expect(policy.CustomHeadersConfig.Items).toContainEqual(
        expect.objectContaining({ Header: 'X-Robots-Tag', Value: 'noindex' }),
      );
    }
    // public pages and the build's robots.txt / sitemap.xml stay on the default behaviour
    for (const path of ['/', '/pricing', '/roadmap/x', '/robots.txt', '/sitemap.xml', '/dashboard-analytics'])
      expect(isPrivatePath(path), path).toBe(false);
  });

  it('answers /api/* with nosniff through the same response headers policy as the app', () => {
    const config = distributionConfig();
    const api = config.CacheBehaviors.find((b) => b.PathPattern === '/api/*')!;
    const policyId = (api.ResponseHeadersPolicyId as { Ref: string }).Ref;
    const policy = resourcesOf(web, 'AWS::CloudFront::ResponseHeadersPolicy')[policyId]!.Properties!
      .ResponseHeadersPolicyConfig as {
      SecurityHeadersConfig: { ContentTypeOptions: { Override: boolean } };
      CustomHeadersConfig: { Items: { Header: string; Value: string }[] };
    };
    expect(policy.SecurityHeadersConfig.ContentTypeOptions).toEqual({ Override: true });
    expect(policy.CustomHeadersConfig.Items).toContainEqual(
      expect.objectContaining({ Header: 'Permissions-Policy', Value: PERMISSIONS_POLICY }),
    );
  });

  it('uploads the built app: hashed assets immutable, pages revalidated, nothing pruned', () => {
    const deployments = Object.values(resourcesOf(web, 'Custom::CDKBucketDeployment')).map((d) => d.Properties!);
    expect(deployments).toHaveLength(2);
    for (const d of deployments) expect(d.Prune).toBe(false);
    const cacheControls = deployments.map((d) => (d.SystemMetadata as Record<string, string>)['cache-control']);
    expect(cacheControls).toEqual(expect.arrayContaining(['public, max-age=31536000, immutable', 'no-cache']));
  });

  it('skips the upload with a warning when there is no build', () => {
    const noBuild = synthSendBridge({}, { appDistDir: path.join(tmpdir(), 'sendbridge-no-such-dist') });
    noBuild.template(noBuild.web).resourceCountIs('Custom::CDKBucketDeployment', 0);
    Annotations.fromStack(noBuild.web).hasWarning('/SendBridge-Web', Match.stringLikeRegexp('index.html not found'));
  });

  it('uses a custom domain with TLS 1.2 when configured', () => {
    const custom = synthSendBridge({
      domainName: 'send.example.com',
      certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc',
    });
    custom.template(custom.web).hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        Aliases: ['send.example.com'],
        ViewerCertificate: Match.objectLike({ MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' }),
      }),
    });
  });
});

describe('origin verification', () => {
  it('sends the origin-verify secret to the API origin, and gives every function the same secret to compare', () => {
    const dist = Object.values(resourcesOf(web, 'AWS::CloudFront::Distribution'))[0]!;
    const origins = (
      dist.Properties!.DistributionConfig as {
        Origins: {
          DomainName: unknown;
          CustomOriginConfig?: unknown;
          OriginCustomHeaders?: { HeaderName: string; HeaderValue: unknown }[];
        }[];
      }
    ).Origins;
    const api = origins.filter((o) => o.CustomOriginConfig);
    expect(api).toHaveLength(1);
    const header = api[0]!.OriginCustomHeaders?.find((h) => h.HeaderName === 'x-origin-verify');
    const secretRef = JSON.stringify(header?.HeaderValue);
    // A dynamic reference to the core stack's secret, resolved by CloudFormation: no secret in the template.
    expect(secretRef).toContain('resolve:secretsmanager');
    const core = t.template(t.core);
    // The core also holds the payments simulator's signing secret; the origin one is OriginVerify.
    const secrets = Object.keys(resourcesOf(core, 'AWS::SecretsManager::Secret')).filter((id) =>
      id.startsWith('OriginVerify'),
    );
    expect(secrets).toHaveLength(1);
    for (const [id, fn] of Object.entries(resourcesOf(core, 'AWS::Lambda::Function'))) {
      const value = JSON.stringify(
        (fn.Properties!.Environment as { Variables: Record<string, unknown> }).Variables.ORIGIN_VERIFY,
      );
      expect(value, id).toContain('resolve:secretsmanager');
      expect(value, id).toContain(secrets[0]);
    }
  });
});
