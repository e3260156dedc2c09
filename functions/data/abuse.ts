/**
 * Abuse reports: the operator queue, one partition `pk=ABUSE`, `sk=<at>#<id>`
 * (docs/data-model.md pattern 60), newest last. Reports are never deleted by the product:
 * they are the operator's record of why a transfer was disabled.
 */
import { ddb } from '../lib/clients/dynamodb';
import type { AbuseReason } from '../domain/abuse-api';
import { queryAll, table } from './base';

export const ABUSE_PARTITION = 'ABUSE';

export interface AbuseReportRecord {
  readonly id: string;
  readonly slug: string;
  readonly reason: AbuseReason;
  readonly reporterEmail?: string;
  readonly details?: string;
  readonly sourceIp: string;
  readonly lang?: string;
  readonly createdAt: number;
}

export function abuseKey(at: number, id: string) {
  return { pk: ABUSE_PARTITION, sk: `${String(at).padStart(15, '0')}#${id}` };
}

export async function putAbuseReport(r: AbuseReportRecord): Promise<void> {
  await ddb().put({ TableName: table(), Item: { ...abuseKey(r.createdAt, r.id), entity: 'AbuseReport', ...r } });
}

/** The queue, oldest first; with `slug`, that transfer's reports only. */
export async function listAbuseReports(slug?: string): Promise<AbuseReportRecord[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': ABUSE_PARTITION, ...(slug ? { ':s': slug } : {}) },
    ...(slug ? { FilterExpression: 'slug = :s' } : {}),
  });
  return items.map((i) => {
    const { pk: _pk, sk: _sk, entity: _e, ...rest } = i;
    return rest as unknown as AbuseReportRecord;
  });
}
