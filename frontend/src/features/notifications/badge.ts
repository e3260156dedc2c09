/** The bell's badge (spec §2): nothing without unread ones, the count up to 9, '9+' above. */
export function badgeText(unread: number): string {
  if (!Number.isFinite(unread) || unread <= 0) return '';
  return unread > 9 ? '9+' : String(Math.floor(unread));
}
