/**
 * Abuse reports (docs/security.md "Abuse reports"): a visitor of a download link
 * reports it; the report is recorded in the operator queue and mailed to the operator address.
 * Operators disable and enable transfers with `npm run abuse` (scripts/abuse.ts), which calls
 * `disableTransfer` / `enableTransfer`: a disabled link answers 410 `transfer_disabled`, and
 * nothing is deleted (objects, files and reports stay as evidence).
 */
import { randomUUID } from 'node:crypto';
import { REPORTS_PER_IP, REPORTS_PER_TRANSFER, type AbuseReason } from '../domain/abuse-api';
import { TEXTS } from '../domain/texts';
import * as data from '../data/transfers';
import { listAbuseReports, putAbuseReport, type AbuseReportRecord } from '../data/abuse';
import { hitRateWindow } from '../data/verification';
import { notFound, tooManyRequests } from '../lib/errors';
import { config } from '../lib/env';
import { ENV } from '../lib/env-names';
import { log } from '../lib/log';
import { mailAbuseReport } from './mail';

export interface AbuseReportInput {
  readonly slug: string;
  readonly reason: AbuseReason;
  readonly email?: string | undefined;
  readonly details?: string | undefined;
  readonly lang?: string | undefined;
}

/** POST /getDownload/report */
export async function reportTransfer(
  input: AbuseReportInput,
  sourceIp: string,
  now = Date.now(),
): Promise<AbuseReportRecord> {
  const t = await data.getTransfer(input.slug);
  if (t?.status !== 'ready') throw notFound('transfer_not_found', TEXTS.download404);
  for (const [scope, subject, rule] of [
    ['abuse-transfer', `${input.slug}:${sourceIp}`, REPORTS_PER_TRANSFER],
    ['abuse-ip', sourceIp, REPORTS_PER_IP],
  ] as const) {
    const hit = await hitRateWindow(scope, subject, rule.limit, rule.windowSeconds, now);
    if (!hit.allowed)
      throw tooManyRequests(hit.retryAfterSeconds, 'You already reported this. Our team will review it.');
  }
  const details = input.details?.trim();
  const report: AbuseReportRecord = {
    id: randomUUID(),
    slug: input.slug,
    reason: input.reason,
    ...(input.email ? { reporterEmail: input.email } : {}),
    ...(details ? { details } : {}),
    sourceIp,
    ...(input.lang ? { lang: input.lang } : {}),
    createdAt: now,
  };
  await putAbuseReport(report);
  log.warn('abuse report', { slug: report.slug, reason: report.reason, reportId: report.id });
  const to = process.env[ENV.abuseReportTo];
  if (to) {
    await mailAbuseReport(to, {
      slug: report.slug,
      reason: report.reason,
      reportId: report.id,
      ...(report.reporterEmail ? { reporterEmail: report.reporterEmail } : {}),
      ...(report.details ? { details: report.details } : {}),
      downloadLink: `${config().appOrigin}/downloads/${report.slug}`,
    });
  }
  return report;
}

/** The operator disables a transfer (its link answers 410); its objects and records are kept. */
export async function disableTransfer(slug: string, now = Date.now()): Promise<boolean> {
  const reports = await listAbuseReports(slug);
  const latest = reports.at(-1);
  return data.setDisabled(slug, { at: now, ...(latest ? { reportId: latest.id } : {}) });
}

export async function enableTransfer(slug: string): Promise<boolean> {
  return data.setDisabled(slug, undefined);
}
