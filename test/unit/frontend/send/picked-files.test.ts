import { describe, expect, it } from 'vitest';
import type { PlannedFile } from '@domain/transfer-api';
import { filesFromEntries, matchPlannedFiles, pickedFromFiles, type DroppedEntry } from '@/shared/upload/picked-files';

function withRelativePath(file: File, path: string): File {
  Object.defineProperty(file, 'webkitRelativePath', { value: path });
  return file;
}

/** A dropped tree as the File and Directory Entries API presents it; folders answer in batches. */
function fileEntry(fullPath: string, content: string, unreadable = false): DroppedEntry {
  const name = fullPath.slice(fullPath.lastIndexOf('/') + 1);
  return {
    isFile: true,
    isDirectory: false,
    name,
    fullPath,
    file: (ok: (f: File) => void, fail?: (e: unknown) => void) =>
      queueMicrotask(() => (unreadable ? fail?.(new Error('NotReadableError')) : ok(new File([content], name)))),
  } as DroppedEntry;
}
function dirEntry(fullPath: string, children: DroppedEntry[], batch = 2): DroppedEntry {
  return {
    isFile: false,
    isDirectory: true,
    name: fullPath.slice(fullPath.lastIndexOf('/') + 1),
    fullPath,
    createReader: () => {
      let at = 0;
      return {
        readEntries: (ok: (entries: DroppedEntry[]) => void) =>
          queueMicrotask(() => {
            ok(children.slice(at, at + batch));
            at += batch;
          }),
      };
    },
  } as DroppedEntry;
}

describe('picked files', () => {
  it('keeps the folder picker path and leaves plain picks without one', () => {
    const picked = pickedFromFiles([
      new File(['abc'], 'a.txt'),
      withRelativePath(new File(['hello'], 'b.txt'), 'photos/2024/b.txt'),
    ]);
    expect(picked.map(({ fileName, size, itemPath }) => ({ fileName, size, itemPath }))).toEqual([
      { fileName: 'a.txt', size: 3, itemPath: undefined },
      { fileName: 'b.txt', size: 5, itemPath: 'photos/2024/b.txt' },
    ]);
  });

  it('walks dropped folders to the last batch, paths relative to the drop', async () => {
    const tree = [
      fileEntry('/loose.txt', 'l'),
      dirEntry('/photos', [
        fileEntry('/photos/1.jpg', '11'),
        fileEntry('/photos/2.jpg', '22'),
        dirEntry('/photos/raw', [fileEntry('/photos/raw/3.cr2', '333')]),
        fileEntry('/photos/4.jpg', '4444'),
      ]),
    ];
    const { files, unreadable } = await filesFromEntries(tree);
    expect(files.map((f) => [f.fileName, f.itemPath, f.size])).toEqual([
      ['loose.txt', undefined, 1],
      ['1.jpg', 'photos/1.jpg', 2],
      ['2.jpg', 'photos/2.jpg', 2],
      ['3.cr2', 'photos/raw/3.cr2', 3],
      ['4.jpg', 'photos/4.jpg', 4],
    ]);
    expect(unreadable).toEqual([]);
    expect(await files[4]!.blob.text()).toBe('4444');
  });

  it('reports files it cannot read instead of failing the drop', async () => {
    const { files, unreadable } = await filesFromEntries([
      dirEntry('/d', [fileEntry('/d/ok.txt', 'o'), fileEntry('/d/locked.psd', '', true)]),
    ]);
    expect(files.map((f) => f.fileName)).toEqual(['ok.txt']);
    expect(unreadable).toEqual(['locked.psd']);
  });
});

describe('pairing the upload plan with the picked bytes', () => {
  const plan = (fileName: string, size: number, itemPath?: string): PlannedFile => ({
    fileId: `id-${itemPath ?? fileName}`,
    fileName,
    size,
    mode: 'single',
    ...(itemPath ? { itemPath } : {}),
  });
  const pick = (fileName: string, size: number, itemPath?: string) => ({
    fileName,
    size,
    itemPath,
    blob: new Blob([`${itemPath ?? fileName}`]),
  });

  it('pairs by position and, when the plan is reordered, by relative path or name', async () => {
    const picked = [pick('a.txt', 1), pick('a.txt', 2, 'x/a.txt'), pick('b.txt', 3)];
    const same = matchPlannedFiles([plan('a.txt', 1), plan('a.txt', 2, 'x/a.txt'), plan('b.txt', 3)], picked);
    expect(same.map((u) => u.blob)).toEqual(picked.map((p) => p.blob));
    const reordered = matchPlannedFiles([plan('b.txt', 3), plan('a.txt', 2, 'x/a.txt'), plan('a.txt', 1)], picked);
    expect(await Promise.all(reordered.map((u) => u.blob.text()))).toEqual(['b.txt', 'x/a.txt', 'a.txt']);
  });

  it('refuses a plan entry with no picked file of that key and size', () => {
    expect(() => matchPlannedFiles([plan('c.txt', 1)], [pick('a.txt', 1)])).toThrow(/c\.txt/);
    expect(() => matchPlannedFiles([plan('a.txt', 9)], [pick('a.txt', 1)])).toThrow(/a\.txt/);
  });
});
