/**
 * GET /canny/changelog (spec §7): the entries of our own changelog (functions/content/changelog.ts),
 * newest first, for the What's-new panel and the /updates page.
 */
import type { ChangelogResponse } from '../domain/dashboard-api';
import { CHANGELOG } from '../content/changelog';

/** Shared caches (CloudFront, browsers) may keep the answer this long: it changes only with a deploy. */
export const CHANGELOG_MAX_AGE_SECONDS = 300;

export function changelog(entries = CHANGELOG): ChangelogResponse {
  return {
    entries: [...entries].sort((a, b) => Date.parse(b.created) - Date.parse(a.created) || a.id.localeCompare(b.id)),
  };
}
