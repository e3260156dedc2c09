import { HeadBucketCommand } from '@aws-sdk/client-s3';
import { s3 } from '../lib/clients';
import { config } from '../lib/env';
import type { RegionId } from '../domain/regions';

/** Heads both buckets of every configured region; per region ok or the failing bucket's error. */
export async function checkBuckets(): Promise<Record<string, { ok: boolean; error?: string }>> {
  const entries = Object.entries(config().regionBuckets) as [RegionId, { bucket: string; anonBucket: string; awsRegion: string }][];
  const results = await Promise.all(
    entries.map(async ([regionId, b]) => {
      try {
        await Promise.all([b.bucket, b.anonBucket].map((Bucket) => s3(b.awsRegion).send(new HeadBucketCommand({ Bucket }))));
        return [regionId, { ok: true }] as const;
      } catch (err) {
        return [regionId, { ok: false, error: describe(err) }] as const;
      }
    }),
  );
  return Object.fromEntries(results);
}

function describe(err: unknown): string {
  if (err && typeof err === 'object' && 'name' in err) return String((err as { name: unknown }).name);
  return String(err);
}
