import countries from 'i18n-iso-countries';

/**
 * ISO 3166 alpha-2 (what downloads record) to the numeric code world-atlas names its shapes by
 * ("DE" -> "276"); undefined for 'XX' (unknown) and codes with no numeric one.
 */
export function numericOf(alpha2: string): string | undefined {
  const upper = alpha2.toUpperCase();
  if (!/^[A-Z]{2}$/u.test(upper)) return undefined;
  return countries.alpha2ToNumeric(upper);
}
