/**
 * CloudFront's distribution tenant API (issue 15; REST/XML, API version 2020-05-31), signed by
 * the same aws4fetch core as every other call here rather than @aws-sdk/client-cloudfront, whose
 * runtime would break the bundles' no-SDK rule (test/infra/bundle-contents.test.ts). Only the
 * calls the tenant job makes: create a tenant for a verified host with a CloudFront-managed
 * certificate, find one by domain, disable and delete one.
 */
import { AwsError, send } from './core';
import { escapeXmlText, xmlText } from './xml';

const API = 'https://cloudfront.amazonaws.com/2020-05-31';
const XMLNS = 'http://cloudfront.amazonaws.com/doc/2020-05-31/';
/** CloudFront is global: requests are signed for us-east-1. */
const SIGNING_REGION = 'us-east-1';

export interface TenantRef {
  readonly id: string;
  readonly etag: string | undefined;
  readonly enabled: boolean;
  readonly status: string | undefined;
}

async function xmlError(res: Response): Promise<AwsError> {
  const text = await res.text().catch(() => '');
  const code = xmlText(text, 'Code') ?? `Http${res.status}Error`;
  return new AwsError(code, xmlText(text, 'Message') ?? '', res.status, undefined, res.headers.get('x-amz-request-id') ?? undefined);
}

function call(method: string, path: string, body?: string, headers: Record<string, string> = {}): Promise<{ xml: string; etag: string | undefined }> {
  return send(
    {
      service: 'cloudfront',
      region: SIGNING_REGION,
      method,
      url: `${API}${path}`,
      headers: { ...(body !== undefined ? { 'content-type': 'application/xml' } : {}), ...headers },
      ...(body !== undefined ? { body } : {}),
    },
    { parseError: xmlError, read: async (res) => ({ xml: await res.text(), etag: res.headers.get('etag') ?? undefined }) },
  );
}

function tenantOf(out: { xml: string; etag: string | undefined }): TenantRef {
  // Each DomainResult has a Status of its own (active / inactive): read the tenant's outside them.
  const own = out.xml.replace(/<Domains>[\s\S]*?<\/Domains>/u, '');
  return { id: xmlText(own, 'Id') ?? '', etag: out.etag, enabled: xmlText(own, 'Enabled') === 'true', status: xmlText(own, 'Status') };
}

/** A tenant serving `host` on `distributionId` in `connectionGroupId`, with a CloudFront-managed certificate. */
export async function createDistributionTenant(input: { distributionId: string; connectionGroupId: string; host: string; name: string }): Promise<TenantRef> {
  const host = escapeXmlText(input.host);
  const body =
    `<?xml version="1.0" encoding="UTF-8"?><CreateDistributionTenantRequest xmlns="${XMLNS}">` +
    `<ConnectionGroupId>${escapeXmlText(input.connectionGroupId)}</ConnectionGroupId>` +
    `<DistributionId>${escapeXmlText(input.distributionId)}</DistributionId>` +
    `<Domains><DomainItem><Domain>${host}</Domain></DomainItem></Domains><Enabled>true</Enabled>` +
    // The user's CNAME already points at the connection group, so CloudFront validates over HTTP.
    `<ManagedCertificateRequest><PrimaryDomainName>${host}</PrimaryDomainName><ValidationTokenHost>cloudfront</ValidationTokenHost></ManagedCertificateRequest>` +
    `<Name>${escapeXmlText(input.name)}</Name></CreateDistributionTenantRequest>`;
  return tenantOf(await call('POST', '/distribution-tenant', body));
}

/** The tenant that serves `host`, if any. */
export async function getDistributionTenantByDomain(host: string): Promise<TenantRef | undefined> {
  try {
    return tenantOf(await call('GET', `/distribution-tenant-by-domain?domain=${encodeURIComponent(host)}`));
  } catch (err) {
    if (err instanceof AwsError && (err.name === 'EntityNotFound' || err.$metadata.httpStatusCode === 404)) return undefined;
    throw err;
  }
}

export async function getDistributionTenant(id: string): Promise<{ ref: TenantRef; xml: string } | undefined> {
  try {
    const out = await call('GET', `/distribution-tenant/${encodeURIComponent(id)}`);
    return { ref: tenantOf(out), xml: out.xml };
  } catch (err) {
    if (err instanceof AwsError && (err.name === 'EntityNotFound' || err.$metadata.httpStatusCode === 404)) return undefined;
    throw err;
  }
}

/** Disables a tenant (CloudFront deletes only disabled tenants); its domains and distribution stay. */
export async function disableDistributionTenant(id: string, current: { xml: string; etag: string }): Promise<void> {
  const domains = [...current.xml.matchAll(/<Domain>([^<]*)<\/Domain>/gu)].map((m) => `<DomainItem><Domain>${m[1]}</Domain></DomainItem>`).join('');
  const body =
    `<?xml version="1.0" encoding="UTF-8"?><UpdateDistributionTenantRequest xmlns="${XMLNS}">` +
    `<DistributionId>${escapeXmlText(xmlText(current.xml, 'DistributionId') ?? '')}</DistributionId>` +
    `<Domains>${domains}</Domains><Enabled>false</Enabled></UpdateDistributionTenantRequest>`;
  await call('PUT', `/distribution-tenant/${encodeURIComponent(id)}`, body, { 'if-match': current.etag });
}

export async function deleteDistributionTenant(id: string, etag: string): Promise<void> {
  await call('DELETE', `/distribution-tenant/${encodeURIComponent(id)}`, undefined, { 'if-match': etag });
}
