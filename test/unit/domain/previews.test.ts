import { describe, expect, it } from 'vitest';
import {
  PREVIEW_CONTENT_TYPES,
  extensionOf,
  isSafeInlineType,
  previewRuleOf,
  thumbnailKeyOf,
  THUMBNAIL_CONTENT_TYPE,
  THUMBNAIL_MAX_PX,
} from '../../../functions/domain/previews';
import { IMAGE_PREVIEW_MAX_BYTES } from '../../../functions/domain/upload';

const rule = (fileName: string, size = 1000, recording?: 'voice' | 'video') =>
  previewRuleOf({ fileName, size, ...(recording ? { recording } : {}) });

describe('file kinds', () => {
  it('reads the extension of the base name, lower-cased; none for dotfiles and names without one', () => {
    expect(extensionOf('Photos/IMG_0001.JPG')).toBe('jpg');
    expect(extensionOf('a\\b\\report.final.PDF')).toBe('pdf');
    expect(extensionOf('.bashrc')).toBe('');
    expect(extensionOf('README')).toBe('');
    expect(extensionOf('folder.v2/README')).toBe('');
  });

  it.each([
    ['photo.jpg', 'image', 'image/jpeg'],
    ['photo.JPEG', 'image', 'image/jpeg'],
    ['scan.png', 'image', 'image/png'],
    ['anim.gif', 'image', 'image/gif'],
    ['pic.webp', 'image', 'image/webp'],
    ['pic.avif', 'image', 'image/avif'],
    ['song.mp3', 'audio', 'audio/mpeg'],
    ['take.wav', 'audio', 'audio/wav'],
    ['take.m4a', 'audio', 'audio/mp4'],
    ['clip.mp4', 'video', 'video/mp4'],
    ['clip.webm', 'video', 'video/webm'],
    ['clip.mov', 'video', 'video/quicktime'],
    ['contract.pdf', 'pdf', 'application/pdf'],
    ['notes.txt', 'text', 'text/plain; charset=utf-8'],
    ['data.csv', 'text', 'text/plain; charset=utf-8'],
    ['README.md', 'text', 'text/plain; charset=utf-8'],
    ['config.json', 'text', 'text/plain; charset=utf-8'],
  ])('%s previews as %s, served as %s', (name, kind, type) => {
    expect(rule(name)).toMatchObject({ kind, contentType: type, icon: kind });
  });

  it.each([
    ['logo.svg', 'image'],
    ['icon.SVGZ', 'image'],
    ['photo.heic', 'image'],
    ['scan.tiff', 'image'],
    ['index.html', 'code'],
    ['page.htm', 'code'],
    ['feed.xml', 'code'],
    ['app.js', 'code'],
    ['archive.zip', 'archive'],
    ['backup.tar', 'archive'],
    ['letter.docx', 'document'],
    ['budget.xlsx', 'spreadsheet'],
    ['deck.pptx', 'presentation'],
    ['movie.mkv', 'video'],
    ['voice.wma', 'audio'],
    ['setup.exe', 'file'],
    ['README', 'file'],
    ['x.constructor', 'file'],
    ['x.__proto__', 'file'],
    ['x.tostring', 'file'],
  ])('%s has no preview, only the %s icon', (name, icon) => {
    const r = rule(name);
    expect(r).toEqual({ kind: 'none', icon, thumbnail: false });
  });

  it('a voice memo plays as audio whatever container the recorder used; a recorded video stays video', () => {
    expect(rule('voice-memo-2026-11-21T07-40-12.webm', 5000, 'voice')).toMatchObject({
      kind: 'audio',
      contentType: 'audio/webm',
      icon: 'audio',
    });
    expect(rule('voice-memo.ogg', 5000, 'voice')).toMatchObject({ kind: 'audio', contentType: 'audio/ogg' });
    expect(rule('video-2026-11-21T07-40-12.webm', 5000, 'video')).toMatchObject({
      kind: 'video',
      contentType: 'video/webm',
    });
    // without the recording flag, WebM is video
    expect(rule('voice-memo-2026-11-21T07-40-12.webm', 5000)).toMatchObject({ kind: 'video' });
  });

  it('images up to 100 MB (spec §5) get a thumbnail and the viewer; one byte more, only the icon', () => {
    expect(rule('big.jpg', IMAGE_PREVIEW_MAX_BYTES)).toMatchObject({ kind: 'image', thumbnail: true });
    expect(rule('bigger.jpg', IMAGE_PREVIEW_MAX_BYTES + 1)).toEqual({ kind: 'none', icon: 'image', thumbnail: false });
    expect(rule('empty.png', 0)).toMatchObject({ kind: 'image', thumbnail: false });
    // other kinds play or show at any size
    expect(rule('film.mp4', 50 * IMAGE_PREVIEW_MAX_BYTES)).toMatchObject({ kind: 'video' });
    expect(rule('huge.pdf', 50 * IMAGE_PREVIEW_MAX_BYTES)).toMatchObject({ kind: 'pdf' });
  });

  it('only ever serves safe inline types: never HTML, SVG, XML or script', () => {
    expect(PREVIEW_CONTENT_TYPES.length).toBeGreaterThan(10);
    for (const type of PREVIEW_CONTENT_TYPES) expect(isSafeInlineType(type), type).toBe(true);
    for (const type of [
      'text/html',
      'image/svg+xml',
      'application/xhtml+xml',
      'text/xml',
      'application/javascript',
      'text/plain',
      'application/octet-stream',
    ]) {
      expect(isSafeInlineType(type), type).toBe(false);
    }
  });

  it('keeps the thumbnail beside its object, under the transfer prefix the purge deletes', () => {
    expect(thumbnailKeyOf('t/Ab3dEf9/AbCdEfGhIj')).toBe('t/Ab3dEf9/AbCdEfGhIj.thumb.webp');
    expect(THUMBNAIL_CONTENT_TYPE).toBe('image/webp');
    expect(THUMBNAIL_MAX_PX).toBe(400);
  });
});
