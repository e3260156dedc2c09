import { useCallback, useEffect, useRef, useState } from 'react';
import type { RegionId } from '@domain/regions';
import type { RegionView } from '@domain/settings-api';
import { fetchRegions } from './settings-api';
import { measureAll } from './speed-test';

/** ms per region: undefined while measuring, NaN when no sample answered. */
export type Speeds = Readonly<Partial<Record<RegionId, number>>>;

/**
 * The regions and their speed from this browser. Not a user's action (useAction): a new test
 * aborts the one still running.
 */
export function useRegionSpeeds() {
  const [regions, setRegions] = useState<readonly RegionView[] | null>(null);
  // spec §9's default until GET /regions says this deployment's (a value import of domain/regions would split it out of the home page's chunk)
  const [defaultRegion, setDefaultRegion] = useState<RegionId>('hongkong');
  const [loadFailed, setLoadFailed] = useState(false);
  const [speeds, setSpeeds] = useState<Speeds>({});
  const [testing, setTesting] = useState(false);
  const run = useRef<AbortController | null>(null);

  /** Fresh URLs (they are short-lived), then every offered region measured in parallel. */
  const test = useCallback(async () => {
    run.current?.abort();
    const controller = new AbortController();
    run.current = controller;
    setTesting(true);
    setSpeeds({});
    try {
      const list = await fetchRegions(controller.signal);
      if (controller.signal.aborted) return;
      setRegions(list.regions);
      setDefaultRegion(list.defaultRegion);
      setLoadFailed(false);
      const targets = list.regions.flatMap((r) =>
        r.speedTestUrl ? [{ regionId: r.regionId, url: r.speedTestUrl }] : [],
      );
      await measureAll(
        targets,
        (regionId, ms) => setSpeeds((s) => ({ ...s, [regionId]: ms })),
        undefined,
        controller.signal,
      );
    } catch {
      if (!controller.signal.aborted) setLoadFailed(true);
    } finally {
      if (run.current === controller) setTesting(false);
    }
  }, []);

  useEffect(() => {
    void test();
    return () => run.current?.abort();
  }, [test]);

  return { regions, defaultRegion, loadFailed, speeds, testing, test };
}
