export type RoadmapStatus = 'shipped' | 'inProgress' | 'planned';

export const ROADMAP_STATUSES: readonly RoadmapStatus[] = ['inProgress', 'planned', 'shipped'];

/** Texts live in the locales under roadmap.items.<id>. */
export const ROADMAP_ITEMS = [
  { id: 'website', status: 'shipped' },
  { id: 'languages', status: 'shipped' },
  { id: 'accounts', status: 'inProgress' },
  { id: 'transfers', status: 'inProgress' },
  { id: 'downloads', status: 'planned' },
  { id: 'requests', status: 'planned' },
  { id: 'branding', status: 'planned' },
  { id: 'analytics', status: 'planned' },
] as const satisfies readonly { id: string; status: RoadmapStatus }[];

export type RoadmapItem = (typeof ROADMAP_ITEMS)[number];

export function findRoadmapItem(id: string | undefined): RoadmapItem | undefined {
  return ROADMAP_ITEMS.find((item) => item.id === id);
}
