import { beforeAll, describe, expect, it } from 'vitest';
import { UNIT_ENV } from '../../helpers/events';

import type * as z from 'zod/mini';
import { attachmentDisposition } from '../../../functions/adapters/storage';
import { countryFromCode, countryOf, UNKNOWN_COUNTRY } from '../../../functions/adapters/geo';
import { hashCode, hashPassword, hashToken, newToken, safeEqual, verifyPassword } from '../../../functions/lib/secrets';
import { mailTitleOf, titleOf, zipContentHash, zipName } from '../../../functions/services/downloads';
import { draftError } from '../../../functions/services/draft-error';
import { transferDraftSchema } from '../../../functions/domain/validation';
import { TEXTS } from '../../../functions/domain/texts';

describe('attachmentDisposition (RFC 6266)', () => {
  it('gives an ASCII fallback and the exact UTF-8 name', () => {
    expect(attachmentDisposition('report.pdf')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
    expect(attachmentDisposition('Résumé 2026.pdf')).toBe(
      `attachment; filename="R_sum_ 2026.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%202026.pdf`,
    );
  });

  it('neutralises quotes, backslashes, CR/LF and path parts of hostile names', () => {
    const header = attachmentDisposition('..\\..\\evil"\r\nSet-Cookie: x=1.html');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header.startsWith('attachment; filename="')).toBe(true);
    const fallback = /filename="([^"]*)"/.exec(header)![1]!;
    expect(fallback).not.toMatch(/["\\/]/);
    expect(header).toContain("filename*=UTF-8''evil%22%0D%0ASet-Cookie%3A%20x%3D1.html");
  });

  it('never yields an empty name', () => {
    expect(attachmentDisposition('folder/')).toContain('filename="download"');
  });
});

describe('download country', () => {
  beforeAll(() => {
    Object.assign(process.env, UNIT_ENV);
    delete process.env.GEOIP_DATABASE;
  });

  it('names a CloudFront country code in English', () => {
    expect(countryFromCode('de')).toEqual({ code: 'DE', name: 'Germany' });
    expect(countryFromCode('XX')).toBeUndefined();
    expect(countryFromCode('Germany')).toBeUndefined();
  });

  it('is Unknown without a header and without a GeoIP database', async () => {
    expect(await countryOf(undefined, '203.0.113.9')).toEqual(UNKNOWN_COUNTRY);
    expect(await countryOf('JP', '203.0.113.9')).toEqual({ code: 'JP', name: 'Japan' });
  });
});

describe('secrets', () => {
  it('tokens are 43 url-safe characters and differ; only their hash is compared', () => {
    const a = newToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newToken()).not.toBe(a);
    expect(hashToken(a)).not.toContain(a);
    expect(safeEqual(hashToken(a), hashToken(a))).toBe(true);
    expect(safeEqual(hashToken(a), hashToken(newToken()))).toBe(false);
  });

  it('code hashes depend on the salt', () => {
    expect(hashCode('12345', 's1')).not.toBe(hashCode('12345', 's2'));
  });

  it('password hashes are salted scrypt and verify only the right password', async () => {
    const h1 = await hashPassword('open sesame');
    const h2 = await hashPassword('open sesame');
    expect(h1).toMatch(/^scrypt\$16384\$8\$1\$/);
    expect(h1).not.toBe(h2);
    expect(await verifyPassword('open sesame', h1)).toBe(true);
    expect(await verifyPassword('open sesame!', h1)).toBe(false);
    expect(await verifyPassword('x', 'garbage')).toBe(false);
  });
});

describe('download titles and ZIP identity', () => {
  const files = [
    { fileId: 'A', fileName: 'photos/one.jpg', size: 3 },
    { fileId: 'B', fileName: 'two.jpg', size: 5 },
  ];

  it('titles a transfer by its file or its count', () => {
    expect(titleOf([files[0]!])).toBe('one.jpg');
    expect(titleOf(files)).toBe('2 files');
    expect(mailTitleOf(files)).toBe('one.jpg (+1)');
  });

  it('identifies a ZIP by its exact file set, in any order', () => {
    expect(zipContentHash(files)).toBe(zipContentHash([...files].reverse()));
    expect(zipContentHash(files)).not.toBe(zipContentHash([...files, { fileId: 'C', size: 1 }]));
    expect(zipContentHash(files)).toMatch(/^[a-f0-9]{24}$/);
    expect(zipName({ slug: 'abcdefg' }, [files[0]!])).toBe('one.zip');
    expect(zipName({ slug: 'abcdefg' }, files)).toBe('SendBridge-abcdefg.zip');
  });
});

describe('draftError', () => {
  it('answers the first problem with its stable code and lists them all', () => {
    const result = transferDraftSchema({ role: 'anon', now: 0 }).safeParse({ sendAs: 'link', fileObjects: [] });
    expect(result.success).toBe(false);
    const err = draftError((result as { error: z.core.$ZodError }).error);
    expect(err.statusCode).toBe(400);
    expect(err.code).toBe('links_reserved');
    expect(err.message).toBe(TEXTS.linksReserved);
    const codes = (err.details as { issues: { code: string }[] }).issues.map((i) => i.code);
    expect(codes).toContain('no_files');
  });
});
