/**
 * Avatars drawn locally from initials (spec §7 "an avatar service by initials", without any
 * outside service): a colour picked from the user's id or email, the same on every screen.
 */

/** FNV-1a over the seed's UTF-16 units: stable, tiny, well spread for short ids. */
export function avatarHueOf(seed: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < seed.length; i += 1) h = Math.imul(h ^ seed.charCodeAt(i), 0x01000193) >>> 0;
  return h % 360;
}

/** Any hue at this saturation and lightness keeps white initials at WCAG AA (4.5:1; a unit test checks every hue). */
export function avatarColourOf(seed: string): string {
  return `hsl(${avatarHueOf(seed)} 60% 30%)`;
}
