/**
 * The sender's download limits (docs/decisions/0077): per transfer or per recipient, 1 to 100
 * whole downloads. Apart from services/deliveries.ts so the dashboard's function carries neither
 * the GeoIP reader nor the mail templates.
 */
import type { DownloadLimitsView, SetDownloadLimitRequest } from '../domain/dashboard-api';
import { listDeliveries } from '../data/deliveries';
import { deleteLimit, listLimits, recipientScope, setLimit, TRANSFER_SCOPE } from '../data/download-grants';
import type { TransferRecord } from '../data/transfers';
import { notFound } from '../lib/errors';
import { requireOwner } from './transfers';

/** The limits of a transfer, for its sender's modal. */
export async function downloadLimitsOf(slug: string, userId: string): Promise<DownloadLimitsView> {
  const t = await requireOwner(slug, userId);
  return limitsView(t, await listLimits(slug));
}

function limitsView(t: TransferRecord, limits: Awaited<ReturnType<typeof listLimits>>): DownloadLimitsView {
  const all = limits.find((l) => l.scope === TRANSFER_SCOPE);
  return {
    ...(all ? { transfer: { limit: all.limit, used: all.completed } } : {}),
    recipients: limits.flatMap((l) => {
      const r = t.recipients.find((x) => recipientScope(x.recipientId) === l.scope);
      return r ? [{ recipient: r.email, limit: l.limit, used: l.completed }] : [];
    }),
  };
}

/**
 * PATCH /transfers/{id}/download-limit: sets (or with `limit: null` removes) the limit of the
 * transfer, or of one of its recipients (by address). A new limit starts from the deliveries
 * already made in its scope.
 */
export async function setDownloadLimit(
  slug: string,
  userId: string,
  body: SetDownloadLimitRequest,
): Promise<DownloadLimitsView> {
  const t = await requireOwner(slug, userId);
  let scope = TRANSFER_SCOPE;
  let email: string | undefined;
  if (body.recipient !== undefined) {
    const r = t.recipients.find((x) => x.email.toLowerCase() === body.recipient!.toLowerCase());
    if (!r) throw notFound('recipient_not_found', 'This address is not a recipient of this transfer.');
    scope = recipientScope(r.recipientId);
    email = r.email;
  }
  if (body.limit === null) await deleteLimit(slug, scope);
  else await setLimit(slug, scope, body.limit, await deliveriesSoFar(slug, email));
  return limitsView(t, await listLimits(slug));
}

async function deliveriesSoFar(slug: string, email: string | undefined): Promise<number> {
  const all = await listDeliveries(slug);
  if (email === undefined) return all.length;
  return all.filter((d) => d.recipient.kind !== 'link' && d.recipient.email.toLowerCase() === email.toLowerCase())
    .length;
}
