import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { keyedLinkOf, rememberLinkKey } from '@/shared/e2e/link-keys';
import { memoryStorage } from '../../helpers/memory-storage';

describe("the keys of this browser's encrypted link sends", () => {
  beforeEach(() => vi.stubGlobal('localStorage', memoryStorage()));
  afterEach(() => vi.unstubAllGlobals());

  it('gives the dashboard the whole link of a send made here, and nothing for one made elsewhere', () => {
    rememberLinkKey('Abc1234', 'https://app.example/downloads/Abc1234/x9#k=SECRETKEY');
    expect(keyedLinkOf('Abc1234', 'https://app.example/downloads/Abc1234/x9')).toBe(
      'https://app.example/downloads/Abc1234/x9#k=SECRETKEY',
    );
    expect(keyedLinkOf('Zzz9999', 'https://app.example/downloads/Zzz9999/y1')).toBeNull();
  });

  it('keeps only a key fragment, and the newest 200 sends', () => {
    rememberLinkKey('NoKey01', 'https://app.example/downloads/NoKey01/x9');
    rememberLinkKey('Other01', 'https://app.example/downloads/Other01/x9#utm=1');
    expect(keyedLinkOf('NoKey01', 'l')).toBeNull();
    expect(keyedLinkOf('Other01', 'l')).toBeNull();
    for (let i = 0; i < 205; i++) rememberLinkKey(`T${i}`, `https://a/downloads/T${i}#k=K${i}`, 1_000 + i);
    expect(keyedLinkOf('T0', 'https://a/downloads/T0')).toBeNull();
    expect(keyedLinkOf('T4', 'https://a/downloads/T4')).toBeNull();
    expect(keyedLinkOf('T5', 'https://a/downloads/T5')).toBe('https://a/downloads/T5#k=K5');
    expect(keyedLinkOf('T204', 'https://a/downloads/T204')).toBe('https://a/downloads/T204#k=K204');
  });

  it('reads a damaged store as empty, and a refused one loses only the copy', () => {
    localStorage.setItem('sendbridge.e2e-link-keys', '{not json');
    expect(keyedLinkOf('Abc1234', 'l')).toBeNull();
    vi.stubGlobal('localStorage', {
      ...memoryStorage(),
      getItem: () => null,
      setItem: () => {
        throw new Error('full');
      },
    });
    expect(() => rememberLinkKey('Abc1234', 'https://a#k=K')).not.toThrow();
  });
});
