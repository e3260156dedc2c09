import { useCallback, useEffect, useState } from 'react';
import type { DeliveryView } from '@domain/webhooks-api';
import { anyPending } from '@/shared/webhooks/delivery-format';
import { DELIVERY_POLL_MS, fetchDeliveries } from './webhooks-api';

/**
 * An endpoint's delivery log (and so its last delivery): loaded now, on `reload`, and again
 * while one is pending and the page is visible. null until the first answer.
 */
export function useDeliveries(endpointId: string) {
  const [deliveries, setDeliveries] = useState<DeliveryView[] | null>(null);
  const [reloads, setReloads] = useState(0);
  useEffect(() => {
    const abort = new AbortController();
    fetchDeliveries(endpointId, abort.signal).then(
      (r) => setDeliveries(r.deliveries),
      () => undefined,
    );
    return () => abort.abort();
  }, [endpointId, reloads]);
  const pending = deliveries !== null && anyPending(deliveries);
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => {
      if (document.visibilityState === 'visible') setReloads((n) => n + 1);
    }, DELIVERY_POLL_MS);
    return () => clearTimeout(timer);
  }, [pending, deliveries]);
  const reload = useCallback(() => setReloads((n) => n + 1), []);
  return { deliveries, reload };
}
