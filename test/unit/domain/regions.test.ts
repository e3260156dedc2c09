import { describe, it, expect } from 'vitest';
import { DEFAULT_REGION, OFFERED_REGION_IDS, REGION_IDS, regionIdSchema } from '../../../functions/domain/regions';

describe('regions', () => {
  it('offer Hong Kong, Silicon Valley, Frankfurt and Dubai, with Hong Kong as default', () => {
    expect(OFFERED_REGION_IDS).toEqual(['hongkong', 'siliconvalley', 'frankfurt', 'dubai']);
    expect(REGION_IDS).toEqual([...OFFERED_REGION_IDS, 'hangzhou', 'guangzhou']);
    expect(DEFAULT_REGION).toBe('hongkong');
  });

  it('parse only known region ids', () => {
    expect(regionIdSchema.parse('dubai')).toBe('dubai');
    expect(regionIdSchema.safeParse('mars').success).toBe(false);
    expect(regionIdSchema.safeParse(3).success).toBe(false);
  });
});
