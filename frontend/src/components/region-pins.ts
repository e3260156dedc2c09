import type { RegionId } from '../../../functions/domain/regions';

/** Approximate data-centre locations of the offered storage regions, for the map only. */
export const REGION_LOCATIONS = {
  hongkong: [114.2, 22.3],
  siliconvalley: [-122.0, 37.4],
  frankfurt: [8.7, 50.1],
  dubai: [55.3, 25.2],
} as const satisfies Partial<Record<RegionId, readonly [number, number]>>;

export type MappedRegion = keyof typeof REGION_LOCATIONS;
export const MAPPED_REGIONS = Object.keys(REGION_LOCATIONS) as MappedRegion[];

/** Label placement that keeps the four labels apart on a world-wide map. */
export const REGION_LABEL_AT: Readonly<Record<MappedRegion, 'left' | 'below' | undefined>> = {
  hongkong: 'below',
  siliconvalley: undefined,
  frankfurt: undefined,
  dubai: 'left',
};
