import { useEffect, useRef, useState } from 'react';
import type { NotificationView } from '@domain/dashboard-api';
import { useDismiss } from '@/lib/use-dismiss';

/**
 * The bell's panel: open or not; opening focuses it and refreshes the list; a click outside or
 * Escape closes it (Escape gives the focus back to the toggle); opening an item marks it read.
 */
export function useBellPanel(refresh: () => Promise<unknown>, markRead: (id: string) => void) {
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const panelRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    panelRef.current?.focus();
    void refresh().catch(() => undefined);
  }, [open, refresh]);

  useDismiss(open, rootRef, (how) => {
    setOpen(false);
    if (how === 'escape') toggleRef.current?.focus();
  });

  // Opening an item marks it read and closes the panel.
  const openItem = (n: NotificationView) => {
    if (!n.read) markRead(n._id);
    setOpen(false);
  };

  return { open, toggle: () => setOpen((o) => !o), rootRef, toggleRef, panelRef, openItem };
}
