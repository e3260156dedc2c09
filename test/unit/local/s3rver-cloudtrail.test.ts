import { describe, expect, it } from 'vitest';
import { getObjectTarget } from '../../../scripts/local/s3rver-cloudtrail';

describe('which s3rver requests are GetObject calls (the ones CloudTrail reports)', () => {
  it('a path-style GET of an object, its key decoded, presigned or not', () => {
    const call = getObjectTarget('GET', '/bucket-a/t/AbC123/f%201?X-Amz-Expires=900&response-content-disposition=x');
    expect(call).toMatchObject({ bucket: 'bucket-a', key: 't/AbC123/f 1' });
    expect(call?.query.get('X-Amz-Expires')).toBe('900');
    expect(getObjectTarget('GET', '/bucket-a/z/AbC123/h.zip')).toMatchObject({ key: 'z/AbC123/h.zip' });
  });

  it('not HEAD, PUT, bucket listings or another call on an object', () => {
    expect(getObjectTarget('HEAD', '/bucket-a/t/x')).toBeUndefined();
    expect(getObjectTarget('PUT', '/bucket-a/t/x')).toBeUndefined();
    expect(getObjectTarget('GET', '/bucket-a')).toBeUndefined();
    expect(getObjectTarget('GET', '/bucket-a/?list-type=2')).toBeUndefined();
    expect(getObjectTarget('GET', '/bucket-a/t/x?tagging')).toBeUndefined();
    expect(getObjectTarget('GET', '/bucket-a/t/x?acl')).toBeUndefined();
    expect(getObjectTarget('GET', '/bucket-a/t/x?uploadId=1')).toBeUndefined();
  });
});
