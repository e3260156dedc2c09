/**
 * The tenant job's CloudFront calls at the wire (the CloudFront provider of
 * functions/adapters/cdn-tenants-cloudfront.ts through @aws-sdk/client-cloudfront, answered at the SDK's
 * HTTP handler): signed for cloudfront in us-east-1, the 2020-05-31 XML bodies, ETag and
 * If-Match, and a tenant disabled before deletion.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { tenantName, tenantProvider } from '../../../functions/adapters/cdn-tenants';
import { cloudFrontTenantProvider } from '../../../functions/adapters/cdn-tenants-cloudfront';
import { ENV } from '../../../functions/lib/env-names';
import { stubHttp, type SentRequest } from '../../helpers/http-stub';

let calls: SentRequest[];
let restore: () => void;
let answer: (req: SentRequest) => Response;

const xml = (body: string, status = 200, headers: Record<string, string> = {}) =>
  new Response(`<?xml version="1.0"?>${body}`, { status, headers: { 'content-type': 'text/xml', ...headers } });
const tenantXml = (enabled: boolean, status: string) =>
  // List members as the SDK's model of the API reads and writes them (`member`, the list's default element name).
  `<DistributionTenant><Id>dt_123</Id><DistributionId>E1MT</DistributionId><Domains><member><Domain>files.acme.com</Domain><Status>active</Status></member></Domains><Enabled>${enabled}</Enabled><Status>${status}</Status></DistributionTenant>`;
const provider = () =>
  cloudFrontTenantProvider({ [ENV.tenantDistributionId]: 'E1MT', [ENV.connectionGroupId]: 'cg_9' })!;

beforeEach(() => {
  process.env.AWS_ACCESS_KEY_ID = 'unit';
  process.env.AWS_SECRET_ACCESS_KEY = 'unit';
  answer = () => xml(tenantXml(true, 'InProgress'), 201, { etag: 'E1' });
  ({ calls, restore } = stubHttp((req) => answer(req)));
});

afterEach(() => restore());

describe('CloudFront distribution tenants', () => {
  it('creates a tenant for the host on the multi-tenant distribution, with a managed certificate', async () => {
    expect(await provider().create('files.acme.com')).toEqual({ tenantId: 'dt_123', etag: 'E1' });
    const [req] = calls;
    expect(req!.method).toBe('POST');
    expect(req!.url.href).toBe('https://cloudfront.amazonaws.com/2020-05-31/distribution-tenant');
    expect(req!.headers.get('authorization')).toMatch(/Credential=unit\/\d{8}\/us-east-1\/cloudfront\/aws4_request/u);
    const body = req!.body.toString('utf8');
    expect(body).toContain('<DistributionId>E1MT</DistributionId>');
    expect(body).toContain('<ConnectionGroupId>cg_9</ConnectionGroupId>');
    expect(body).toContain('<Domains><member><Domain>files.acme.com</Domain></member></Domains>');
    expect(body).toMatch(
      /<ManagedCertificateRequest>(?=.*<PrimaryDomainName>files\.acme\.com<\/PrimaryDomainName>)(?=.*<ValidationTokenHost>cloudfront<\/ValidationTokenHost>).*<\/ManagedCertificateRequest>/u,
    );
    expect(body).toContain('<Enabled>true</Enabled>');
    expect(body).toContain(`<Name>${tenantName('files.acme.com')}</Name>`);
  });

  it('finds the tenant a previous run made when the domain is taken already', async () => {
    answer = (req) =>
      req.method === 'POST'
        ? xml(
            '<ErrorResponse><Error><Code>CNAMEAlreadyExists</Code><Message>taken</Message></Error></ErrorResponse>',
            409,
          )
        : xml(tenantXml(true, 'Deployed'), 200, { etag: 'E2' });
    expect(await provider().create('files.acme.com')).toEqual({ tenantId: 'dt_123', etag: 'E2' });
    expect(calls[1]!.method).toBe('GET');
    expect(calls[1]!.url.href).toBe(
      'https://cloudfront.amazonaws.com/2020-05-31/distribution-tenant?domain=files.acme.com',
    );
  });

  it('disables an enabled tenant first, deletes it once disabled and deployed, with If-Match', async () => {
    answer = (req) =>
      req.method === 'GET'
        ? xml(tenantXml(true, 'Deployed'), 200, { etag: 'E3' })
        : xml(tenantXml(false, 'InProgress'), 200, { etag: 'E4' });
    expect(await provider().remove('files.acme.com', 'dt_123')).toBe('pending');
    const put = calls[1]!;
    expect(put.method).toBe('PUT');
    expect(put.headers.get('if-match')).toBe('E3');
    expect(put.body.toString('utf8')).toContain('<Enabled>false</Enabled>');
    expect(put.body.toString('utf8')).toContain('<Domain>files.acme.com</Domain>');

    calls.length = 0;
    answer = (req) =>
      req.method === 'GET'
        ? xml(tenantXml(false, 'Deployed'), 200, { etag: 'E5' })
        : new Response(null, { status: 204 });
    expect(await provider().remove('files.acme.com', 'dt_123')).toBe('deleted');
    expect(calls.map((c) => c.method)).toEqual(['GET', 'DELETE']);
    expect(calls[1]!.headers.get('if-match')).toBe('E5');

    calls.length = 0;
    answer = () => xml('<ErrorResponse><Error><Code>EntityNotFound</Code></Error></ErrorResponse>', 404);
    expect(await provider().remove('files.acme.com', 'dt_123')).toBe('deleted');
  });

  it('uses no provider in AWS without the tenant grant, the local one beside the emulators', () => {
    expect(tenantProvider({})).toBeUndefined();
    expect(tenantProvider({ [ENV.dynamodbEndpoint]: 'http://127.0.0.1:8000' })?.kind).toBe('local');
    // CloudFront is the tenant job's alone: only its env names the distribution and connection group.
    expect(tenantProvider({ [ENV.tenantDistributionId]: 'E1MT', [ENV.connectionGroupId]: 'cg_9' })).toBeUndefined();
    expect(cloudFrontTenantProvider({ [ENV.tenantDistributionId]: 'E1MT' })).toBeUndefined();
    expect(
      cloudFrontTenantProvider({ [ENV.tenantDistributionId]: 'E1MT', [ENV.connectionGroupId]: 'cg_9' })?.kind,
    ).toBe('cloudfront');
  });
});
