/** Number of shades the map uses for countries with downloads (0 is "none"). */
export const SHADES = 5;

/**
 * The shade (0 none, 1..SHADES) of a country with `count` downloads when the busiest has `max`,
 * on a log scale: one country with thousands does not wash every other one out to the palest.
 */
export function shadeOf(count: number, max: number): number {
  if (!(count > 0) || !(max > 0)) return 0;
  if (count >= max || max <= 1) return SHADES;
  return 1 + Math.min(SHADES - 1, Math.floor(((SHADES - 1) * Math.log(count)) / Math.log(max)));
}
