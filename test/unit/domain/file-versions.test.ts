/**
 * Versions of a file of a sent transfer (domain/file-versions.ts): the grouping the download
 * page, the ZIP, the modal and the review read (current version, every version's id), and the
 * rules of a new version (current only, folder kept, plan size over every stored version,
 * guests' blocked types, pending leftovers dropped).
 */
import { describe, expect, it } from 'vitest';
import {
  MAX_FILE_VERSIONS,
  checkNewVersion,
  currentVersions,
  groupFileVersions,
  reviewFilesOf,
  supersededFileIds,
  type VersionedFileFacts,
} from '../../../functions/domain/file-versions';
import { limitsFor } from '../../../functions/domain/plans';

const f = (fileId: string, extra: Partial<VersionedFileFacts> = {}): VersionedFileFacts => ({
  fileId,
  fileName: `${fileId}.png`,
  size: 100,
  status: 'uploaded',
  ...extra,
});

describe('groupFileVersions', () => {
  it('groups versions under the first one, in the transfer order, the highest version current', () => {
    const files = [
      f('A'),
      f('B', { itemPath: 'dir/B.png' }),
      f('A3', { versionOf: 'A', version: 3 }),
      f('A2', { versionOf: 'A', version: 2 }),
    ];
    const groups = groupFileVersions(files);
    expect(groups.map((g) => [g.fileId, g.version, g.versionFileIds, g.current.fileId])).toEqual([
      ['A', 3, ['A', 'A2', 'A3'], 'A3'],
      ['B', 1, ['B'], 'B'],
    ]);
    expect(currentVersions(files).map((x) => x.fileId)).toEqual(['A3', 'B']);
    expect([...supersededFileIds(files)].sort()).toEqual(['A', 'A2']);
  });

  it('a transfer without versions is itself, and an empty one is empty', () => {
    const files = [f('A'), f('B')];
    expect(currentVersions(files)).toEqual(files);
    expect(supersededFileIds(files).size).toBe(0);
    expect(groupFileVersions([])).toEqual([]);
  });

  it('gives the review one entry per file: first id, current name and preview kind, versions oldest first', () => {
    const files = [
      { fileId: 'A', fileName: 'cut.mp4', size: 10 },
      { fileId: 'B', fileName: 'notes.bin', size: 10 },
      { fileId: 'A2', fileName: 'cut-final.png', size: 10, versionOf: 'A', version: 2 },
    ];
    expect(reviewFilesOf(files)).toEqual([
      { fileId: 'A', fileName: 'cut-final.png', previewKind: 'image', version: 2, versionFileIds: ['A', 'A2'] },
      { fileId: 'B', fileName: 'notes.bin', previewKind: 'none', version: 1, versionFileIds: ['B'] },
    ]);
  });
});

describe('checkNewVersion', () => {
  const entry = { fileName: 'logo-v2.png', size: 50 };

  it('numbers the next version after the current one and names the first version', () => {
    const files = [f('A'), f('A2', { versionOf: 'A', version: 2 })];
    expect(checkNewVersion(files, 'A2', entry, 'pro')).toEqual({
      ok: true,
      entry,
      versionOf: 'A',
      version: 3,
      abandoned: [],
    });
  });

  it('keeps the replaced file’s folder', () => {
    const files = [f('A', { itemPath: 'brand/logos/A.png' })];
    const checked = checkNewVersion(files, 'A', entry, 'pro');
    expect(checked).toMatchObject({
      ok: true,
      entry: { fileName: 'logo-v2.png', itemPath: 'brand/logos/logo-v2.png' },
    });
  });

  it('refuses an older version, naming the current one, and a file that is not there or not uploaded', () => {
    const files = [f('A'), f('A2', { versionOf: 'A', version: 2 }), f('P', { status: 'pending' })];
    expect(checkNewVersion(files, 'A', entry, 'pro')).toEqual({
      ok: false,
      refusal: { code: 'not_current_version', currentFileId: 'A2' },
    });
    expect(checkNewVersion(files, 'Z', entry, 'pro')).toEqual({ ok: false, refusal: { code: 'file_not_found' } });
    expect(checkNewVersion(files, 'P', entry, 'pro')).toEqual({ ok: false, refusal: { code: 'file_not_found' } });
  });

  it('drops files left pending by an earlier upload (their token ends), and does not count their bytes', () => {
    const limit = limitsFor('free').uploadLimit;
    const files = [
      f('A', { size: limit - 100 }),
      f('A2', { versionOf: 'A', version: 2, status: 'pending', size: 90 }),
      f('X', { status: 'pending', size: 5 }),
    ];
    const checked = checkNewVersion(files, 'A', { fileName: 'a.png', size: 100 }, 'free');
    expect(checked).toMatchObject({ ok: true, version: 2, abandoned: ['A2', 'X'] });
  });

  it('refuses while a version of the file is being put together', () => {
    const files = [f('A'), f('A2', { versionOf: 'A', version: 2, status: 'completing' })];
    expect(checkNewVersion(files, 'A', entry, 'pro')).toEqual({ ok: false, refusal: { code: 'version_completing' } });
  });

  it('counts every stored version against the plan’s size per transfer', () => {
    const limit = limitsFor('free').uploadLimit;
    const files = [f('A', { size: limit - 10 })];
    expect(checkNewVersion(files, 'A', { fileName: 'a.png', size: 10 }, 'free')).toMatchObject({ ok: true });
    expect(checkNewVersion(files, 'A', { fileName: 'a.png', size: 11 }, 'free')).toEqual({
      ok: false,
      refusal: { code: 'transfer_too_large', limit },
    });
  });

  it('applies the guests’ file rules', () => {
    const checked = checkNewVersion([f('A')], 'A', { fileName: 'setup.exe', size: 10 }, 'anon');
    expect(checked).toEqual({ ok: false, refusal: { code: 'file_not_allowed', fileName: 'setup.exe' } });
  });

  it(`stops at ${MAX_FILE_VERSIONS} versions`, () => {
    const last = f('AN', { versionOf: 'A', version: MAX_FILE_VERSIONS });
    expect(checkNewVersion([f('A'), last], 'AN', entry, 'pro')).toEqual({
      ok: false,
      refusal: { code: 'too_many_versions', limit: MAX_FILE_VERSIONS },
    });
  });
});
