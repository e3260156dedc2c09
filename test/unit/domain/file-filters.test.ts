import { describe, it, expect } from 'vitest';
import {
  dedupeFiles,
  extensionOf,
  fileEntriesOf,
  fileRuleViolations,
  filterFilesForRole,
  filterGuestFiles,
  guestRemovalReason,
  hasPiratedReleaseTag,
  normalisePath,
  normaliseSegment,
  totalSize,
} from '../../../functions/domain/file-filters';
import { fileEntrySchema } from '../../../functions/domain/file-entry-schema';

const f = (fileName: string, size = 1, itemPath?: string) => ({ fileName, size, ...(itemPath ? { itemPath } : {}) });

describe('guest file filter', () => {
  it.each(['INDEX.HTML', 'page.htm', 'setup.EXE', 'report.Html', 'trail.html.', 'space.exe  ', 'folder.v2.hTm'])(
    'removes %j as insecure',
    (name) => {
      expect(guestRemovalReason(f(name))).toBe('insecure');
    },
  );

  it.each(['notes.txt', 'html', 'html.pdf', 'index.html5', 'setup.exe.zip', 'readme'])('keeps %j', (name) => {
    expect(guestRemovalReason(f(name))).toBeNull();
  });

  it.each([
    'Movie.2019.1080p.WEBRip.x264-YTS.mp4',
    'film.2160p.mkv',
    'Show.S03E04.720p.mkv',
    'show s01 complete.mp4',
    'Some.Film.WEB-DL.mp4',
    'Some.Film.WEBDL.MP4',
    'Some Film [YIFY].mp4',
    'release-RARBG.mkv',
    'episode.EZTV.mp4',
    'clip_S06.mp4',
  ])('removes pirated-release video %j as copyright', (name) => {
    expect(guestRemovalReason(f(name))).toBe('copyright');
  });

  it.each([
    'holiday.mp4',
    'Movie.2019.1080p.WEBRip.x264-YTS.mov',
    'Show.S07E01.mkv',
    'S10.mp4',
    'my1080pcam.mp4',
    'Ayts.mp4',
    'website-tour.mp4',
    'sales-S01-deck.pdf',
    'Season 1.mkv',
  ])('keeps %j', (name) => {
    expect(guestRemovalReason(f(name))).toBeNull();
  });

  it('recognises each tag the spec names, whole tokens only', () => {
    for (const tag of [
      '1080p',
      '2160p',
      'webrip',
      'WEB-DL',
      'YTS',
      'RARBG',
      'EZTV',
      'YIFY',
      'S01',
      'S02',
      'S03',
      'S04',
      'S05',
      'S06',
      'S03E04',
    ]) {
      expect(hasPiratedReleaseTag(`name.${tag}.mp4`), tag).toBe(true);
      expect(hasPiratedReleaseTag(`name${tag}x.mp4`), `${tag} inside a word`).toBe(false);
    }
  });

  it('returns what it kept and what it removed, with the reason', () => {
    const result = filterGuestFiles([
      f('holiday.mp4'),
      f('INDEX.HTML'),
      f('Movie.2019.1080p.WEBRip.x264-YTS.mp4'),
      f('a.txt'),
    ]);
    expect(result.kept.map((x) => x.fileName)).toEqual(['holiday.mp4', 'a.txt']);
    expect(result.removed).toEqual([
      { file: f('INDEX.HTML'), reason: 'insecure' },
      { file: f('Movie.2019.1080p.WEBRip.x264-YTS.mp4'), reason: 'copyright' },
    ]);
  });

  it('applies only to guests (anon)', () => {
    expect(filterFilesForRole('anon', [f('setup.exe')]).removed).toHaveLength(1);
    expect(filterFilesForRole('free', [f('setup.exe')])).toEqual({ kept: [f('setup.exe')], removed: [] });
  });

  it('reads the extension case-insensitively, ignoring trailing dots and spaces', () => {
    expect(extensionOf('A.TAR.GZ')).toBe('gz');
    expect(extensionOf('x.HTML. .')).toBe('html');
    expect(extensionOf('noext')).toBe('');
  });
});

describe('duplicate files', () => {
  it('drops files with the same relative path, keeping the first', () => {
    const first = f('a.txt', 1, 'docs/a.txt');
    const { kept, duplicates } = dedupeFiles([first, f('a.txt', 2, 'docs/a.txt'), f('a.txt', 3, 'other/a.txt')]);
    expect(kept).toEqual([first, f('a.txt', 3, 'other/a.txt')]);
    expect(duplicates).toEqual([f('a.txt', 2, 'docs/a.txt')]);
  });

  it('drops files with the same name when they have no path', () => {
    expect(dedupeFiles([f('a.txt', 1), f('a.txt', 2), f('b.txt')]).kept).toEqual([f('a.txt', 1), f('b.txt')]);
  });

  it('drops files already in the transfer', () => {
    expect(
      dedupeFiles([f('a.txt', 1, 'd/a.txt'), f('b.txt')], [{ fileName: 'a.txt', itemPath: 'd/a.txt' }]).kept,
    ).toEqual([f('b.txt')]);
  });

  it('treats names as case-sensitive, as most file systems behind a folder upload do', () => {
    expect(dedupeFiles([f('A.txt'), f('a.txt')]).kept).toHaveLength(2);
  });
});

describe('file entries', () => {
  it('need a name and a whole, non-negative size', () => {
    expect(fileEntrySchema.safeParse(f('a', 0)).success).toBe(true);
    expect(fileEntrySchema.safeParse(f('', 1)).success).toBe(false);
    expect(fileEntrySchema.safeParse(f('a', -1)).success).toBe(false);
    expect(fileEntrySchema.safeParse(f('a', 1.5)).success).toBe(false);
  });

  it('sum their sizes', () => {
    expect(totalSize([f('a', 2), f('b', 3)])).toBe(5);
    expect(totalSize([])).toBe(0);
  });
});

describe('names and paths are normalised once, at creation', () => {
  it.each([
    ['evil.exe\u200B', 'evil.exe'],
    ['evil.exe\u0000.txt', 'evil.exe.txt'],
    ['photo\u202Egpj.exe', 'photogpj.exe'],
    ['evil.html::$DATA', 'evil.html'],
    ['evil.html:hidden:$DATA', 'evil.html'],
    ['setup.exe:Zone.Identifier', 'setup.exe'],
    ['page.html. . ', 'page.html'],
    ['\uFEFFcafe\u0301.txt', 'caf\u00E9.txt'],
    ['Meeting 10:30.txt', 'Meeting 10:30.txt'],
  ])('segment %j becomes %j', (raw, want) => {
    expect(normaliseSegment(raw)).toBe(want);
  });

  it('drops empty, "." and ".." segments and treats backslashes as separators', () => {
    expect(normalisePath('x/../../run.exe')).toBe('x/run.exe');
    expect(normalisePath('./a//b\\..\\c.txt')).toBe('a/b/c.txt');
    expect(normalisePath('../..')).toBe('');
  });

  it('stores the path with the checked name as its last segment', () => {
    expect(fileEntrySchema.parse(f('ok.txt', 1, 'dir/evil.html'))).toEqual({
      fileName: 'ok.txt',
      size: 1,
      itemPath: 'dir/ok.txt',
    });
    expect(fileEntrySchema.parse(f('run.exe', 1, 'x/../../run.exe'))).toEqual({
      fileName: 'run.exe',
      size: 1,
      itemPath: 'x/run.exe',
    });
    expect(fileEntrySchema.parse(f('a/b/c.txt', 1))).toEqual({ fileName: 'c.txt', size: 1 });
  });

  it('refuses a name that is nothing once normalised', () => {
    for (const name of ['\u200B\u200B', '..', ' . ', '::$DATA']) {
      const parsed = fileEntrySchema.safeParse(f(name));
      expect(parsed.success, JSON.stringify(name)).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe('invalid_file_name');
    }
  });

  it('runs the guest rules on the normalised name and on the final name of the path', () => {
    for (const name of [
      'evil.exe\u200B',
      'evil.exe\u0000',
      'evil.html::$DATA',
      'setup.exe:Zone.Identifier',
      'tool.scr',
      'page.xhtml',
    ]) {
      expect(guestRemovalReason(f(name)), JSON.stringify(name)).toBe('insecure');
    }
    expect(guestRemovalReason(f('ok.txt', 1, 'dir/evil.html'))).toBe('insecure');
    expect(guestRemovalReason(f('ok.txt', 1, 'dir/ok.txt'))).toBeNull();
  });
});

describe('one guest rule for every file list of a call', () => {
  const call = {
    fileObjects: [f('a.txt'), f('evil.html')],
    recordedVideos: [f('Show.S01E01.1080p.WEB-DL.mkv')],
    voiceMemo: [f('memo.webm'), f('setup.exe')],
  };

  it('enumerates files, recorded videos and voice memos with where each sits', () => {
    expect(fileEntriesOf(call).map((e) => `${e.field}.${e.index}`)).toEqual([
      'fileObjects.0',
      'fileObjects.1',
      'recordedVideos.0',
      'voiceMemo.0',
      'voiceMemo.1',
    ]);
    expect(fileEntriesOf({ fileObjects: [f('x.txt')] })).toHaveLength(1);
  });

  it('names every entry a guest may not send, whatever list it is in, and none for an account', () => {
    expect(fileRuleViolations('anon', call).map((v) => [v.field, v.index, v.reason])).toEqual([
      ['fileObjects', 1, 'insecure'],
      ['recordedVideos', 0, 'copyright'],
      ['voiceMemo', 1, 'insecure'],
    ]);
    expect(fileRuleViolations('free', call)).toEqual([]);
  });
});
