import { abuseReportRequestSchema } from '../../domain/abuse-api';
import { httpRoute } from '../../lib/http';
import { reportTransfer } from '../../services/abuse';

/** POST /getDownload/report: 'Report this transfer' on the download page. */
export const handler = httpRoute({ body: abuseReportRequestSchema }, async ({ body, sourceIp }) => {
  await reportTransfer(
    { slug: body.id, reason: body.reason, email: body.email, details: body.details, lang: body.lang },
    sourceIp,
  );
  return { status: 202, body: { reported: true } };
});
