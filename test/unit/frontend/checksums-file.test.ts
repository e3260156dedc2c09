import { describe, expect, it } from 'vitest';
import { checksumsText } from '@/features/downloads/checksums-file';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);

describe('the SHA256SUMS file of the download page', () => {
  it('writes one `hash  path` line per file, as sha256sum -c reads it', () => {
    expect(
      checksumsText([
        { fileId: 'f1', path: 'photos/one.jpg', size: 3, sha256: A },
        { fileId: 'f2', path: 'notes.txt', size: 5, sha256: B },
      ]),
    ).toBe(`${A}  photos/one.jpg\n${B}  notes.txt\n`);
  });

  it('marks a file still being fingerprinted with a comment line instead of a checksum', () => {
    expect(
      checksumsText([
        { fileId: 'f1', path: 'big.iso', size: 3, sha256: null },
        { fileId: 'f2', path: 'notes.txt', size: 5, sha256: B },
      ]),
    ).toBe(`# pending: big.iso\n${B}  notes.txt\n`);
  });

  it('escapes a backslash or a newline in a name as GNU coreutils does', () => {
    expect(checksumsText([{ fileId: 'f1', path: 'a\\b\nc', size: 1, sha256: A }])).toBe(`\\${A}  a\\\\b\\nc\n`);
  });
});
