import type { ChangelogEntry } from '@domain/dashboard-api';
import type { Load } from '@/lib/use-load';

/** The changelog as the button loads it and the panel shows it. */
export type ChangelogLoad = Load<readonly ChangelogEntry[]>;
