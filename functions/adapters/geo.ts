/**
 * Country of a download (architecture §1): CloudFront's viewer-country header when present,
 * else a GeoIP lookup of the client address when a database is configured (GEOIP_DATABASE,
 * any MaxMind-format .mmdb with a country record: GeoLite2/GeoIP2 Country, or the CC BY 4.0
 * ip-location-db files), else Unknown.
 */
import maxmind, { type CountryResponse, type Reader } from 'maxmind';

/** MaxMind's GeoLite2/GeoIP2 Country shape, or the flat one of the open ip-location-db files. */
type CountryRecord = CountryResponse & { country_code?: string };
import { config } from '../lib/env';
import { log } from '../lib/log';

export interface Country {
  /** ISO 3166-1 alpha-2, or 'XX' when unknown */
  readonly code: string;
  readonly name: string;
}

export const UNKNOWN_COUNTRY: Country = { code: 'XX', name: 'Unknown' };

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

export function countryFromCode(code: string | undefined): Country | undefined {
  const upper = code?.trim().toUpperCase();
  // CloudFront sends 'XX' when it does not know; anything else must be two letters.
  if (!upper || upper === 'XX' || !/^[A-Z]{2}$/u.test(upper)) return undefined;
  try {
    const name = regionNames.of(upper);
    return name && name !== upper ? { code: upper, name } : { code: upper, name: upper };
  } catch {
    return undefined;
  }
}

let reader: Promise<Reader<CountryRecord> | undefined> | undefined;

function geoReader(): Promise<Reader<CountryRecord> | undefined> {
  const path = config().geoipDatabase;
  if (!path) return Promise.resolve(undefined);
  reader ??= maxmind.open<CountryRecord>(path).catch((err: unknown) => {
    log.warn('GeoIP database could not be opened; countries will be Unknown', { path, error: String(err) });
    return undefined;
  });
  return reader;
}

export async function countryOf(viewerCountryHeader: string | undefined, sourceIp: string): Promise<Country> {
  const fromHeader = countryFromCode(viewerCountryHeader);
  if (fromHeader) return fromHeader;
  const db = await geoReader();
  if (db && maxmind.validate(sourceIp)) {
    const hit = db.get(sourceIp);
    const fromDb = countryFromCode(hit?.country?.iso_code ?? hit?.registered_country?.iso_code ?? hit?.country_code);
    if (fromDb) return fromDb;
  }
  return UNKNOWN_COUNTRY;
}
