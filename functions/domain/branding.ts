/**
 * Branding rules (spec §2 customize / powered-by, §7 company by email domain):
 * colours, readable text on them, what an uploaded image really is, which plans may remove
 * the 'Powered by SendBridge' line, and the company name an email's domain suggests.
 * Pure functions: the server and the app (colour preview, company suggestion) share them.
 */
import { emailDomainOf, isCommonMailDomain } from './mail-domains';
import { type Role, rolesFrom } from './plans';

/** `#rgb` or `#rrggbb`, as `<input type=color>` and people write them. */
export const HEX_COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/iu;

/** A valid colour as stored: lower-case `#rrggbb`; null for anything else. */
export function normalizeHexColour(value: string): string | null {
  const v = value.trim();
  if (!HEX_COLOUR.test(v)) return null;
  const hex = v.slice(1).toLowerCase();
  return `#${hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex}`;
}

/** WCAG 2 relative luminance of `#rrggbb`. */
export function relativeLuminance(hex: string): number {
  const n = normalizeHexColour(hex);
  if (!n) throw new RangeError(`not a colour: ${hex}`);
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(n.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Black or white text on `background`, whichever contrasts more (so any accent passes axe's 4.5:1 where it can). */
export function readableTextOn(background: string): '#000000' | '#ffffff' {
  return contrastRatio(background, '#000000') >= contrastRatio(background, '#ffffff') ? '#000000' : '#ffffff';
}

// ---- images -------------------------------------------------------------------------------------

export const BRAND_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type BrandImageType = (typeof BRAND_IMAGE_TYPES)[number];
export type BrandImageKind = 'logo' | 'background';
/** Size caps: a logo is small; a page background may be a photo. */
export const BRAND_IMAGE_MAX_BYTES: Record<BrandImageKind, number> = {
  logo: 2 * 1024 * 1024,
  background: 5 * 1024 * 1024,
};
/** Bytes read (ranged GET) to decide what an upload is. */
export const SNIFF_BYTES = 512;
export const EXTENSION_OF: Record<BrandImageType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

const startsWith = (b: Uint8Array, sig: readonly number[], at = 0) => sig.every((x, i) => b[at + i] === x);

/**
 * What the first bytes of an upload are, by magic number only (never the declared type):
 * PNG, JPEG, GIF, WebP, or null. A file that starts like an image but carries markup in
 * its head (an HTML/SVG polyglot that a sniffing browser could render) is null too.
 */
export function sniffImageType(head: Uint8Array): BrandImageType | null {
  let type: BrandImageType | null = null;
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) type = 'image/png';
  else if (startsWith(head, [0xff, 0xd8, 0xff])) type = 'image/jpeg';
  else if (startsWith(head, [0x47, 0x49, 0x46, 0x38]) && (head[4] === 0x37 || head[4] === 0x39) && head[5] === 0x61)
    type = 'image/gif';
  else if (startsWith(head, [0x52, 0x49, 0x46, 0x46]) && startsWith(head, [0x57, 0x45, 0x42, 0x50], 8))
    type = 'image/webp';
  if (!type) return null;
  return looksLikeMarkup(head) ? null : type;
}

/** Markup a browser's sniffer looks for in a file's head (WHATWG MIME sniffing's HTML patterns, plus SVG/XML). */
export function looksLikeMarkup(head: Uint8Array): boolean {
  const text = String.fromCharCode(...head.subarray(0, SNIFF_BYTES)).toLowerCase();
  return /<(?:!doctype|html|script|svg|\?xml|iframe|body|head|object|embed|a\s|img|style|title|div|p>|br>|h1|table|font|b>|!--)/u.test(
    text,
  );
}

// ---- plans ----------------------------------------------------------------------------------------

/**
 * Plans that may remove 'Powered by SendBridge' (spec §2 /dash/account/powered-by; our choice,
 * docs/decisions/ "Branding"): business and above, teams and premium. Others see the upgrade path.
 */
export const POWERED_BY_REMOVABLE_ROLES: readonly Role[] = rolesFrom('business');

export function canRemovePoweredBy(role: string): boolean {
  return (POWERED_BY_REMOVABLE_ROLES as readonly string[]).includes(role);
}

// ---- company name from an email -----------------------------------------------------------------

/** Second-level labels that come before a country code (acme.co.uk -> acme). */
const SECOND_LEVEL = new Set(['co', 'com', 'org', 'net', 'ac', 'gov', 'edu', 'ne', 'or', 'go']);

/**
 * The company an address suggests (spec §7): `alice@acme-studio.com` -> "Acme Studio"; null for
 * the common free mail domains of spec §9 and for malformed addresses. Only a suggestion: the app
 * pre-fills an empty field with it and never overwrites what the user typed.
 */
export function suggestCompany(email: string): string | null {
  const domain = emailDomainOf(email);
  if (domain === null) return null;
  const labels = domain.split('.').filter(Boolean);
  if (labels.length < 2 || isCommonMailDomain(domain)) return null;
  let i = labels.length - 2;
  if (i > 0 && labels[labels.length - 1]!.length === 2 && SECOND_LEVEL.has(labels[i]!)) i -= 1;
  const name = labels[i]!;
  if (isCommonMailDomain(name)) return null;
  const words = name.split(/[-_]+/u).filter(Boolean);
  if (words.length === 0) return null;
  return words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join(' ');
}

/**
 * Where a branding image waits until its bytes are checked (services/branding.ts): the transfers
 * bucket's lifecycle rule ExpireUnacceptedImageUploads empties this prefix after
 * IMAGE_STAGING_DAYS, so an upload that is never saved does not stay. Accepted images are copied
 * out to `u/<id>/brand-...`.
 */
export const IMAGE_STAGING_PREFIX = 'staging/';
export const IMAGE_STAGING_DAYS = 1;
