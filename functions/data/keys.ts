/**
 * Every key string of the single table is built here (conventions §7); docs/data-model.md
 * lists the access patterns. Generic attributes: pk, sk, gsi1pk/gsi1sk, gsi2pk/gsi2sk, entity, ttl.
 */
export const keys = {
  healthProbe: (probeId: string) => ({ pk: `HEALTH#${probeId}`, sk: 'PROBE' }),
  jobRun: (jobName: string) => ({ pk: `JOB#${jobName}`, sk: 'LAST_RUN' }),
} as const;

/** Epoch seconds `secondsFromNow` ahead, for the table's ttl attribute. */
export function ttlIn(secondsFromNow: number, now = Date.now()): number {
  return Math.floor(now / 1000) + Math.ceil(secondsFromNow);
}

/** DynamoDB deletes expired items lazily (DynamoDB Local never does): reads treat them as absent. */
export function isLive(item: { ttl?: unknown } | undefined, now = Date.now()): boolean {
  if (!item) return false;
  return typeof item.ttl !== 'number' || item.ttl * 1000 > now;
}
