/** Changelog entries (spec §3: id, types, created, title, details); texts live in the locales. */
export type ChangeType = 'new' | 'improved' | 'fixed';

export interface ChangelogEntry {
  readonly id: 'website' | 'languages' | 'not-found';
  readonly types: readonly ChangeType[];
  /** ISO date */
  readonly created: string;
}

/** Newest first. */
export const CHANGELOG: readonly ChangelogEntry[] = [
  { id: 'not-found', types: ['improved'], created: '2026-11-21' },
  { id: 'languages', types: ['new'], created: '2026-11-21' },
  { id: 'website', types: ['new'], created: '2026-11-21' },
];
