import { httpRoute } from '../../lib/http';
import { listRegions } from '../../services/settings';

/** GET /regions (public): the storage regions, which are offered and served here, and their speed-test URLs. */
export const handler = httpRoute({}, async () => ({ body: await listRegions() }));
