import { REGION_IDS, type RegionId } from '../functions/domain/regions';

/**
 * Where each storage region of the product (spec §9) lives in AWS.
 *
 * Hangzhou and Guangzhou were Alibaba Cloud regions in the original product. AWS has no region
 * there: its China regions are cn-north-1 (Beijing) and cn-northwest-1 (Ningxia), in the separate
 * `aws-cn` partition, with separate accounts and credentials. A Lambda in the global partition
 * cannot be granted IAM access to an aws-cn bucket, so those two regions are never deployed by
 * default: see `chinaAccount` in docs/deploy.md.
 */
export interface StorageRegionConfig {
  readonly regionId: RegionId;
  readonly awsRegion: string;
  readonly partition: 'aws' | 'aws-cn';
  /**
   * Home region (CoreStack, WebStack) used when this is the first region of `-c regions` and no
   * `-c homeRegion` is given: the nearest region that has every service the core needs
   * (Cognito user pools, SES, HTTP API, DynamoDB). ap-east-1 has no SES, hence Singapore.
   */
  readonly defaultHomeRegion: string;
}

export const REGION_CONFIG: Readonly<Record<RegionId, StorageRegionConfig>> = {
  hongkong: { regionId: 'hongkong', awsRegion: 'ap-east-1', partition: 'aws', defaultHomeRegion: 'ap-southeast-1' },
  siliconvalley: {
    regionId: 'siliconvalley',
    awsRegion: 'us-west-1',
    partition: 'aws',
    defaultHomeRegion: 'us-west-1',
  },
  frankfurt: { regionId: 'frankfurt', awsRegion: 'eu-central-1', partition: 'aws', defaultHomeRegion: 'eu-central-1' },
  // me-central-1 is an opt-in region with a partial service list; the core goes to Frankfurt.
  dubai: { regionId: 'dubai', awsRegion: 'me-central-1', partition: 'aws', defaultHomeRegion: 'eu-central-1' },
  hangzhou: { regionId: 'hangzhou', awsRegion: 'cn-north-1', partition: 'aws-cn', defaultHomeRegion: 'cn-north-1' },
  guangzhou: {
    regionId: 'guangzhou',
    awsRegion: 'cn-northwest-1',
    partition: 'aws-cn',
    defaultHomeRegion: 'cn-northwest-1',
  },
};

/** `-c regions` when absent: the default storage region only (spec: hongkong). */
export const DEFAULT_REGIONS: readonly RegionId[] = ['hongkong'];

/** Parses `hongkong, frankfurt` into region ids; unknown or repeated ids are an error. */
export function parseRegionList(value: string): RegionId[] {
  const ids = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (ids.length === 0) throw new Error('-c regions is empty; name at least one storage region');
  const seen = new Set<string>();
  return ids.map((id) => {
    if (!(REGION_IDS as readonly string[]).includes(id)) {
      throw new Error(`-c regions: unknown storage region '${id}' (known: ${REGION_IDS.join(', ')})`);
    }
    if (seen.has(id)) throw new Error(`-c regions: '${id}' is listed twice`);
    seen.add(id);
    return id as RegionId;
  });
}

export function isChinaRegion(regionId: RegionId): boolean {
  return REGION_CONFIG[regionId].partition === 'aws-cn';
}
