import type { Visitor } from '@/features/downloads/review/review-calls';
import { VISITOR_ID_PATTERN, VISITOR_NAME_MAX_CHARS } from '@domain/review';
import { visitorIdFrom } from '@/features/downloads/review/review-logic';

/**
 * A link visitor's id and typed name, per transfer, in localStorage: the same browser stays
 * the same reviewer (their favourites and decisions) across visits. A verified reviewer's
 * session is the download page's own (download-api.ts storedAccess).
 */
const keyOf = (transferId: string) => `sendbridge.review.visitor.${transferId}`;

export function storedVisitor(transferId: string): Visitor | undefined {
  try {
    const raw = localStorage.getItem(keyOf(transferId));
    if (!raw) return undefined;
    const parsed = JSON.parse(raw) as Partial<Visitor>;
    if (typeof parsed.visitorId !== 'string' || !VISITOR_ID_PATTERN.test(parsed.visitorId)) return undefined;
    const name = typeof parsed.name === 'string' ? parsed.name.trim().slice(0, VISITOR_NAME_MAX_CHARS) : '';
    return { visitorId: parsed.visitorId, name };
  } catch {
    return undefined;
  }
}

/** The visitor with this name: the id they already had on this transfer, else a new random one. */
export function rememberVisitor(transferId: string, name: string): Visitor {
  const visitor = {
    visitorId: storedVisitor(transferId)?.visitorId ?? visitorIdFrom(crypto.getRandomValues(new Uint8Array(16))),
    name: name.trim(),
  };
  try {
    localStorage.setItem(keyOf(transferId), JSON.stringify(visitor));
  } catch {
    // storage refused (private mode): the name holds for this visit only
  }
  return visitor;
}
