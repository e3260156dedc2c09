import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { countryOf, UNKNOWN_COUNTRY } from '../../../functions/adapters/geo';
import { UNIT_ENV } from '../../helpers/events';

/** An open (CC BY 4.0) country database in MaxMind format, installed as a dev dependency. */
const GEOIP_TEST_DB = createRequire(import.meta.url).resolve(
  '@ip-location-db/geo-whois-asn-country-mmdb/geo-whois-asn-country.mmdb',
);

describe('download country from a configured GeoIP database', () => {
  beforeAll(() => {
    Object.assign(process.env, UNIT_ENV, { GEOIP_DATABASE: GEOIP_TEST_DB });
  });

  it('looks up the client address when CloudFront sent no country, and the header still wins', async () => {
    expect(await countryOf(undefined, '8.8.8.8')).toEqual({ code: 'US', name: 'United States' });
    expect(await countryOf('FR', '8.8.8.8')).toEqual({ code: 'FR', name: 'France' });
    expect(await countryOf(undefined, '127.0.0.1')).toEqual(UNKNOWN_COUNTRY);
    expect(await countryOf(undefined, 'not an ip')).toEqual(UNKNOWN_COUNTRY);
  });
});
