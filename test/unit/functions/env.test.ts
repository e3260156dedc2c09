import { describe, expect, it } from 'vitest';
import { readConfig } from '../../../functions/lib/env';
import { UNIT_ENV } from '../../helpers/events';

describe('configuration', () => {
  it('reads every setting with endpoints left unset in AWS', () => {
    const c = readConfig({ ...UNIT_ENV });
    expect(c.tableName).toBe('unit-table');
    expect(c.regionBuckets.frankfurt?.awsRegion).toBe('eu-central-1');
    expect(c.endpoints).toEqual({ dynamodb: undefined, s3: undefined, cognito: undefined, ses: undefined });
  });

  it('fails with the name of a missing variable', () => {
    const { TABLE_NAME: _, ...rest } = UNIT_ENV;
    expect(() => readConfig(rest)).toThrow('Environment variable TABLE_NAME is not set');
  });

  it('refuses region buckets that are not valid JSON or name unknown regions', () => {
    expect(() => readConfig({ ...UNIT_ENV, REGION_BUCKETS: '{oops' })).toThrow(/REGION_BUCKETS is not valid JSON/);
    expect(() =>
      readConfig({
        ...UNIT_ENV,
        REGION_BUCKETS: JSON.stringify({ mars: { bucket: 'abc', anonBucket: 'def', awsRegion: 'x' } }),
      }),
    ).toThrow(/REGION_BUCKETS/);
    for (const bad of [
      [],
      'x',
      { hongkong: { bucket: 'ab', anonBucket: 'def', awsRegion: 'x' } },
      { hongkong: { bucket: 'abc', anonBucket: 'def' } },
      { hongkong: null },
    ]) {
      expect(() => readConfig({ ...UNIT_ENV, REGION_BUCKETS: JSON.stringify(bad) }), JSON.stringify(bad)).toThrow(
        /REGION_BUCKETS is not valid JSON/,
      );
    }
  });

  it('reads the jobs a function may start, and refuses anything but names by job', () => {
    expect(readConfig({ ...UNIT_ENV, JOB_FUNCTIONS: JSON.stringify({ 'zip-build': 'fn-zip' }) }).jobFunctions).toEqual({
      'zip-build': 'fn-zip',
    });
    for (const bad of ['{oops', '[]', JSON.stringify({ 'zip-build': '' }), JSON.stringify({ 'zip-build': 3 })]) {
      expect(() => readConfig({ ...UNIT_ENV, JOB_FUNCTIONS: bad }), bad).toThrow(/JOB_FUNCTIONS is not valid JSON/);
    }
  });

  it('refuses a default region that has no buckets', () => {
    expect(() => readConfig({ ...UNIT_ENV, DEFAULT_STORAGE_REGION: 'dubai' })).toThrow(/DEFAULT_STORAGE_REGION/);
  });
});
