/**
 * Avatars drawn locally from initials (spec §7 "an avatar service by initials", without any
 * outside service): a colour picked from the user's id or email, the same on every screen.
 */

/** Dark enough that white initials on every one pass WCAG AA (4.5:1; a unit test checks). */
export const AVATAR_COLOURS = ['#1d4ed8', '#6d28d9', '#b91c1c', '#047857', '#9a3412', '#0e7490', '#be185d', '#4338ca', '#374151', '#15803d'] as const;

/** FNV-1a over the seed's UTF-16 units: stable, tiny, well spread for short ids. */
export function avatarColourOf(seed: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i += 1) {
    h ^= seed.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return AVATAR_COLOURS[h % AVATAR_COLOURS.length]!;
}

/** One or two initials: first and last word of the name, else the email's first letter. */
export function avatarInitials(name: string | undefined, email: string): string {
  const words = (name ?? '').trim().split(/\s+/u).filter(Boolean);
  const letters = words.length > 1 ? [words[0]!, words[words.length - 1]!] : words;
  const initials = letters.map((w) => Array.from(w)[0] ?? '').join('');
  return (initials || Array.from(email.trim())[0] || '?').toLocaleUpperCase();
}
