import { httpRoute } from '../../lib/http';
import { log } from '../../lib/log';
import { checkHealth } from '../../services/health';

/**
 * GET /health: 200 `{ status: 'ok' }` when the table, every bucket, the user pool and SES
 * answer, else 503 `{ status: 'degraded' }`. It is public, so it names nothing (no pool id,
 * regions, buckets or errors): the full report goes to the function's log, which only
 * operators read (CloudWatch; locally the `npm start` console).
 */
export const handler = httpRoute({}, async () => {
  const report = await checkHealth();
  if (report.ok) log.info('health', { ...report });
  else log.warn('health degraded', { ...report });
  return { status: report.ok ? 200 : 503, body: { status: report.ok ? 'ok' : 'degraded' } };
});
