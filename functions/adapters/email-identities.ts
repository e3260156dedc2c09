/**
 * Sender email domains as SES email identities with Easy DKIM. In AWS: SESv2
 * CreateEmailIdentity / GetEmailIdentity / DeleteEmailIdentity. Locally the SES emulator keeps no
 * identities, so this adapter keeps the identity itself (`SESIDENTITY#<domain>`) with three
 * DKIM tokens made like SES's, and verifies their CNAMEs against the DNS server (DNS_RESOLVER)
 * with real queries: the same records a user creates for SES, checked the same way.
 */
import { randomBytes } from 'node:crypto';
import { ddb } from '../lib/clients/dynamodb';
import { config } from '../lib/env';
import { conditionalWrite, table } from '../data/base';
import { keys } from '../data/keys';
import { dkimRecords, type DkimStatus } from '../domain/custom-domains';
import { cnamesOf } from './dns-check';

export interface EmailIdentity {
  readonly domain: string;
  readonly dkimTokens: readonly string[];
  readonly status: DkimStatus;
}

const DKIM_STATUSES: readonly DkimStatus[] = ['PENDING', 'SUCCESS', 'FAILED', 'TEMPORARY_FAILURE', 'NOT_STARTED'];
const dkimStatusOf = (v: unknown): DkimStatus =>
  DKIM_STATUSES.includes(v as DkimStatus) ? (v as DkimStatus) : 'PENDING';

/** Locally: SES's DKIM tokens are 32 lower-case base32 characters. */
function localToken(): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567';
  return [...randomBytes(32)].map((b) => alphabet[b % 32]).join('');
}

const local = () => config().endpoints.ses !== undefined;

/** SES's client on first use: only the sender-domain routes and the domain job manage identities. */
const ses = () => import('../lib/clients/sesv2');
const errorName = (err: unknown) => (err as { name?: unknown } | undefined)?.name;

/** Creates the identity (or returns the one that exists for this domain). */
export async function createIdentity(domain: string, now = Date.now()): Promise<EmailIdentity> {
  if (local()) {
    const identity = { domain, dkimTokens: [localToken(), localToken(), localToken()], status: 'PENDING' as const };
    const created = await conditionalWrite(() =>
      ddb().put({
        TableName: table(),
        Item: { ...keys.localEmailIdentity(domain), entity: 'LocalEmailIdentity', ...identity, createdAt: now },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return created ? identity : (await getIdentity(domain))!;
  }
  try {
    const { sesv2, CreateEmailIdentityCommand } = await ses();
    const out = await sesv2().send(new CreateEmailIdentityCommand({ EmailIdentity: domain }));
    return { domain, dkimTokens: out.DkimAttributes?.Tokens ?? [], status: dkimStatusOf(out.DkimAttributes?.Status) };
  } catch (err) {
    if (errorName(err) === 'AlreadyExistsException') return (await getIdentity(domain))!;
    throw err;
  }
}

/** The identity's DKIM tokens and status now (locally: its CNAMEs looked up in DNS); undefined if gone. */
export async function getIdentity(domain: string): Promise<EmailIdentity | undefined> {
  if (local()) {
    const out = await ddb().get({ TableName: table(), Key: keys.localEmailIdentity(domain), ConsistentRead: true });
    const i = out.Item;
    if (!i || !Array.isArray(i.dkimTokens)) return undefined;
    const tokens = (i.dkimTokens as unknown[]).filter((t): t is string => typeof t === 'string');
    const found = await Promise.all(
      dkimRecords(domain, tokens).map(async (r) => (await cnamesOf(r.name)).includes(r.value)),
    );
    const status: DkimStatus = found.every(Boolean) ? 'SUCCESS' : 'PENDING';
    if (status !== i.status) {
      await ddb().update({
        TableName: table(),
        Key: keys.localEmailIdentity(domain),
        UpdateExpression: 'SET #s = :s',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': status },
      });
    }
    return { domain, dkimTokens: tokens, status };
  }
  try {
    const { sesv2, GetEmailIdentityCommand } = await ses();
    const out = await sesv2().send(new GetEmailIdentityCommand({ EmailIdentity: domain }));
    return { domain, dkimTokens: out.DkimAttributes?.Tokens ?? [], status: dkimStatusOf(out.DkimAttributes?.Status) };
  } catch (err) {
    if (errorName(err) === 'NotFoundException') return undefined;
    throw err;
  }
}

export async function deleteIdentity(domain: string): Promise<void> {
  if (local()) {
    await ddb().delete({ TableName: table(), Key: keys.localEmailIdentity(domain) });
    return;
  }
  try {
    const { sesv2, DeleteEmailIdentityCommand } = await ses();
    await sesv2().send(new DeleteEmailIdentityCommand({ EmailIdentity: domain }));
  } catch (err) {
    if (errorName(err) !== 'NotFoundException') throw err;
  }
}
