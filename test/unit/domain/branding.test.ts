import { describe, expect, it } from 'vitest';
import {
  canRemovePoweredBy,
  contrastRatio,
  normalizeHexColour,
  readableTextOn,
  sniffImageType,
  suggestCompany,
} from '../../../functions/domain/branding';

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p)] : p)));
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

describe('colours', () => {
  it('normalizes #rgb and #rrggbb and refuses anything else', () => {
    expect(normalizeHexColour('#FC0')).toBe('#ffcc00');
    expect(normalizeHexColour(' #1A2b3C ')).toBe('#1a2b3c');
    for (const bad of ['red', '#12345', '#gggggg', 'url(x)', '#1234567', ''])
      expect(normalizeHexColour(bad), bad).toBeNull();
  });

  it('picks the text colour with the higher contrast, which reaches 4.5:1 on the usual accents', () => {
    expect(readableTextOn('#ffcc00')).toBe('#000000');
    expect(readableTextOn('#1d4ed8')).toBe('#ffffff');
    expect(readableTextOn('#000000')).toBe('#ffffff');
    expect(readableTextOn('#ffffff')).toBe('#000000');
    for (const accent of ['#ffcc00', '#1d4ed8', '#e11d48', '#16a34a', '#7c3aed', '#777777']) {
      expect(contrastRatio(accent, readableTextOn(accent)), accent).toBeGreaterThanOrEqual(4.5);
    }
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
  });
});

describe('sniffImageType', () => {
  it('reads PNG, JPEG, GIF and WebP by their magic numbers', () => {
    expect(sniffImageType(bytes(PNG, [0, 0, 0, 13]))).toBe('image/png');
    expect(sniffImageType(bytes([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffImageType(bytes('GIF89a', [1, 0]))).toBe('image/gif');
    expect(sniffImageType(bytes('GIF87a'))).toBe('image/gif');
    expect(sniffImageType(bytes('RIFF', [0, 0, 0, 0], 'WEBPVP8 '))).toBe('image/webp');
  });

  it('refuses SVG, HTML, empty and short files, other RIFF files and image-headed markup', () => {
    expect(sniffImageType(bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImageType(bytes('<?xml version="1.0"?><svg/>'))).toBeNull();
    expect(sniffImageType(bytes('<!DOCTYPE html><html>'))).toBeNull();
    expect(sniffImageType(bytes())).toBeNull();
    expect(sniffImageType(bytes([0x89, 0x50]))).toBeNull();
    expect(sniffImageType(bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt '))).toBeNull();
    expect(sniffImageType(bytes('GIF89a', '<script>alert(1)</script>'))).toBeNull();
    expect(sniffImageType(bytes(PNG, '<HTML><BODY onload=x>'))).toBeNull();
  });
});

describe('suggestCompany', () => {
  it('turns a company domain into a name', () => {
    expect(suggestCompany('alice@acme-studio.com')).toBe('Acme Studio');
    expect(suggestCompany('bob@mail.globex.co.uk')).toBe('Globex');
    expect(suggestCompany('c@initech.de')).toBe('Initech');
  });

  it('skips the common mail domains of spec §9 and malformed addresses', () => {
    for (const email of [
      'a@gmail.com',
      'a@hotmail.fr',
      'a@yahoo.co.uk',
      'a@outlook.com',
      'a@aol.com',
      'a@protonmail.ch',
      'a@icloud.com',
      'a@live.com',
      'a@ymail.com',
    ]) {
      expect(suggestCompany(email), email).toBeNull();
    }
    for (const email of ['nobody', '@acme.com', 'a@localhost']) expect(suggestCompany(email), email).toBeNull();
  });
});

describe('powered by', () => {
  it('is removable on business and above only', () => {
    expect(['free', 'personal', 'pro'].map(canRemovePoweredBy)).toEqual([false, false, false]);
    expect(
      ['business', 'businessplus', 'businesselite', 'team', 'teamplus', 'teamelite', 'premium'].every(
        canRemovePoweredBy,
      ),
    ).toBe(true);
  });
});
