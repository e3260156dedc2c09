import { describe, expect, it } from 'vitest';
import { ifMatchHolds, ifRangeHolds } from '../../../scripts/local/s3rver-conditional-reads';

const ETAG = '"5d41402abc4b2a76b9719d911017c592"';
const MODIFIED = 'Sat, 28 Nov 2026 13:32:50 GMT';

describe("s3rver's If-Range and If-Match, as S3 reads them", () => {
  it('If-Range holds for the same strong ETag or the exact date, nothing else', () => {
    expect(ifRangeHolds(ETAG, ETAG, MODIFIED)).toBe(true);
    expect(ifRangeHolds('"0123456789abcdef"', ETAG, MODIFIED)).toBe(false);
    expect(ifRangeHolds(`W/${ETAG}`, ETAG, MODIFIED)).toBe(false);
    expect(ifRangeHolds(MODIFIED, ETAG, MODIFIED)).toBe(true);
    expect(ifRangeHolds('Sat, 28 Nov 2026 13:32:49 GMT', ETAG, MODIFIED)).toBe(false);
    expect(ifRangeHolds('not a date', ETAG, MODIFIED)).toBe(false);
  });

  it('If-Match holds for any listed ETag or *', () => {
    expect(ifMatchHolds(ETAG, ETAG)).toBe(true);
    expect(ifMatchHolds(`"aaaa", ${ETAG}`, ETAG)).toBe(true);
    expect(ifMatchHolds('*', ETAG)).toBe(true);
    expect(ifMatchHolds('"aaaa"', ETAG)).toBe(false);
  });
});
