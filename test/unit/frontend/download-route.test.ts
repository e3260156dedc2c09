import { describe, expect, it } from 'vitest';
import { matchRoutes } from 'react-router';
import { routes } from '@/app/routes';
import { parseDownloadRoute } from '@/features/downloads/download-route';
import { folderOf } from '@/features/downloads/file-folder';

/** The params the router hands the page for a path, so the table and the parser are tested together. */
function paramsOf(path: string) {
  const match = matchRoutes(routes, path)?.at(-1);
  if (!match || match.route.path === '*') throw new Error(`${path} is not served`);
  return match.params;
}

describe('parseDownloadRoute', () => {
  it('reads the transfer id of /downloads, /d and /w', () => {
    for (const path of ['/downloads/abc1234', '/d/abc1234', '/w/abc1234']) {
      expect(parseDownloadRoute(paramsOf(path)), path).toEqual({ id: 'abc1234', recipient: undefined, autoZip: false });
    }
  });

  it('passes the recipient id of an emailed link', () => {
    expect(parseDownloadRoute(paramsOf('/downloads/abc1234/Ab3dEf7h'))).toEqual({
      id: 'abc1234',
      recipient: 'Ab3dEf7h',
      autoZip: false,
    });
    expect(parseDownloadRoute(paramsOf('/d/abc1234/Ab3dEf7h'))).toEqual({
      id: 'abc1234',
      recipient: 'Ab3dEf7h',
      autoZip: false,
    });
  });

  it('starts the ZIP when the last segment is downloadZip, with or without a recipient', () => {
    expect(parseDownloadRoute(paramsOf('/downloads/abc1234/Ab3dEf7h/downloadZip'))).toEqual({
      id: 'abc1234',
      recipient: 'Ab3dEf7h',
      autoZip: true,
    });
    expect(parseDownloadRoute(paramsOf('/downloads/abc1234/downloadZip'))).toEqual({
      id: 'abc1234',
      recipient: undefined,
      autoZip: true,
    });
  });

  it('does not start the ZIP for any other third segment', () => {
    expect(parseDownloadRoute(paramsOf('/downloads/abc1234/Ab3dEf7h/zip')).autoZip).toBe(false);
    expect(parseDownloadRoute(paramsOf('/downloads/abc1234/Ab3dEf7h/downloadzip')).autoZip).toBe(false);
    // 'downloadZip' as the user with something after it is not the ZIP flag
    expect(parseDownloadRoute(paramsOf('/downloads/abc1234/downloadZip/Ab3dEf7h')).autoZip).toBe(false);
  });

  it('drops a malformed recipient id but keeps the transfer', () => {
    expect(parseDownloadRoute(paramsOf('/downloads/abc1234/bob'))).toEqual({
      id: 'abc1234',
      recipient: undefined,
      autoZip: false,
    });
    expect(parseDownloadRoute(paramsOf('/downloads/abc1234/Ab3d%20f7h'))).toMatchObject({
      id: 'abc1234',
      recipient: undefined,
    });
  });

  it('gives no id for an address that cannot name a transfer', () => {
    expect(parseDownloadRoute(paramsOf('/downloads/abc123')).id).toBeUndefined();
    expect(parseDownloadRoute(paramsOf('/w/abc12345')).id).toBeUndefined();
    expect(parseDownloadRoute(paramsOf('/d/abc-123')).id).toBeUndefined();
  });
});

describe('folderOf', () => {
  it('is the folder part of the item path', () => {
    expect(folderOf({ fileName: 'a.jpg', itemPath: 'Photos/2024/a.jpg' })).toBe('Photos/2024');
    expect(folderOf({ fileName: 'a.jpg', itemPath: '/Photos/a.jpg' })).toBe('Photos');
    expect(folderOf({ fileName: 'a.jpg', itemPath: 'Photos\\2024\\a.jpg' })).toBe('Photos/2024');
  });

  it('is empty for a file sent on its own', () => {
    expect(folderOf({ fileName: 'a.jpg' })).toBe('');
    expect(folderOf({ fileName: 'a.jpg', itemPath: 'a.jpg' })).toBe('');
    expect(folderOf({ fileName: 'a.jpg', itemPath: '' })).toBe('');
  });
});
