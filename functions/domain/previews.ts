/**
 * Previews on the download page and in the TransferModal: which file shows as what,
 * the type it is served with, and the API's shapes. Pure rules, shared by the API and the app.
 *
 * A file's kind comes from its name's extension only: the type a browser declared at upload is
 * not stored, and the bytes are never trusted either way. Whatever a file holds, the preview URL
 * is served with the type named here (`response-content-type`), so a file named `.png` that
 * holds HTML is fetched as an image the browser will not render, never as a page. HTML, SVG and
 * anything not listed get a typed icon and no URL. No zod here: the app's previews chunk
 * imports these rules.
 */
import { IMAGE_PREVIEW_MAX_BYTES } from './upload';

/** What the page shows for a file. */
export type PreviewKind = 'image' | 'audio' | 'video' | 'pdf' | 'text' | 'none';

/** The typed icon of a file without a preview (and the fallback of one whose preview failed). */
export type IconKind =
  | 'image'
  | 'audio'
  | 'video'
  | 'pdf'
  | 'text'
  | 'archive'
  | 'document'
  | 'spreadsheet'
  | 'presentation'
  | 'code'
  | 'file';

/** A browser recording of the send form (spec §2, §4): sent as `voiceMemo` / `recordedVideos`. */
export type Recording = 'voice' | 'video';

interface KindRule {
  readonly kind: Exclude<PreviewKind, 'none'>;
  /** the one type the preview URL is served with */
  readonly contentType: string;
}

/** Images every current browser shows, and that sharp reads to make their thumbnail. */
const IMAGE_TYPES: Readonly<Record<string, string>> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  jfif: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  avif: 'image/avif',
};

const AUDIO_TYPES: Readonly<Record<string, string>> = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  opus: 'audio/ogg',
  m4a: 'audio/mp4',
  aac: 'audio/aac',
  flac: 'audio/flac',
  weba: 'audio/webm',
};

const VIDEO_TYPES: Readonly<Record<string, string>> = {
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  webm: 'video/webm',
  ogv: 'video/ogg',
  mov: 'video/quicktime',
};

/** Plain text, whatever its dialect: shown as text, never interpreted (no .html, .svg, .xml). */
const TEXT_EXTENSIONS = [
  'txt',
  'text',
  'log',
  'md',
  'markdown',
  'csv',
  'tsv',
  'json',
  'yaml',
  'yml',
  'ini',
  'conf',
  'srt',
  'vtt',
] as const;
export const TEXT_CONTENT_TYPE = 'text/plain; charset=utf-8';
export const PDF_CONTENT_TYPE = 'application/pdf';

/** The text viewer shows at most this much of a file (a ranged read, never the whole of a big log). */
export const TEXT_PREVIEW_MAX_BYTES = 256 * 1024;

const ICONS: Readonly<Record<string, IconKind>> = {
  zip: 'archive',
  rar: 'archive',
  '7z': 'archive',
  tar: 'archive',
  gz: 'archive',
  tgz: 'archive',
  bz2: 'archive',
  xz: 'archive',
  dmg: 'archive',
  iso: 'archive',
  doc: 'document',
  docx: 'document',
  odt: 'document',
  rtf: 'document',
  pages: 'document',
  epub: 'document',
  xls: 'spreadsheet',
  xlsx: 'spreadsheet',
  ods: 'spreadsheet',
  numbers: 'spreadsheet',
  ppt: 'presentation',
  pptx: 'presentation',
  odp: 'presentation',
  key: 'presentation',
  html: 'code',
  htm: 'code',
  xhtml: 'code',
  xml: 'code',
  js: 'code',
  mjs: 'code',
  ts: 'code',
  tsx: 'code',
  jsx: 'code',
  css: 'code',
  py: 'code',
  java: 'code',
  c: 'code',
  h: 'code',
  cpp: 'code',
  go: 'code',
  rs: 'code',
  rb: 'code',
  php: 'code',
  sh: 'code',
  sql: 'code',
  // images the browser does not show (or must not: SVG may carry script), audio and video it may not play
  svg: 'image',
  svgz: 'image',
  heic: 'image',
  heif: 'image',
  tif: 'image',
  tiff: 'image',
  bmp: 'image',
  psd: 'image',
  raw: 'image',
  cr2: 'image',
  nef: 'image',
  ico: 'image',
  wma: 'audio',
  aiff: 'audio',
  aif: 'audio',
  mid: 'audio',
  midi: 'audio',
  amr: 'audio',
  avi: 'video',
  mkv: 'video',
  wmv: 'video',
  flv: 'video',
  mpg: 'video',
  mpeg: 'video',
  '3gp': 'video',
};

/** The lower-case extension of a file name ('' when none); folders in the name are ignored. */
export function extensionOf(fileName: string): string {
  const base = fileName.split(/[\\/]/u).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/** A table's own entry only: a file named `x.constructor` must not find Object.prototype's. */
function own<T>(table: Readonly<Record<string, T>>, ext: string): T | undefined {
  return Object.hasOwn(table, ext) ? table[ext] : undefined;
}

function ruleOf(ext: string, recording: Recording | undefined): KindRule | undefined {
  // The recorder writes WebM, which holds audio or video: a voice memo plays as audio.
  if (recording === 'voice' && (ext === 'webm' || own(AUDIO_TYPES, ext)))
    return { kind: 'audio', contentType: own(AUDIO_TYPES, ext) ?? 'audio/webm' };
  const image = own(IMAGE_TYPES, ext);
  if (image) return { kind: 'image', contentType: image };
  const audio = own(AUDIO_TYPES, ext);
  if (audio) return { kind: 'audio', contentType: audio };
  const video = own(VIDEO_TYPES, ext);
  if (video) return { kind: 'video', contentType: video };
  if (ext === 'pdf') return { kind: 'pdf', contentType: PDF_CONTENT_TYPE };
  if ((TEXT_EXTENSIONS as readonly string[]).includes(ext)) return { kind: 'text', contentType: TEXT_CONTENT_TYPE };
  return undefined;
}

export interface PreviewRule {
  readonly kind: PreviewKind;
  /** the type the preview URL is served with (absent for 'none') */
  readonly contentType?: string;
  readonly icon: IconKind;
  /** an image the thumbnail job makes a thumbnail of (spec §5: images up to 100 MB) */
  readonly thumbnail: boolean;
}

/**
 * How a file previews. Images over 100 MB (spec §5, §9) get neither thumbnail nor viewer, only
 * their icon; every other kind plays or shows at any size (the browser streams it by ranges).
 */
export function previewRuleOf(file: {
  readonly fileName: string;
  readonly size: number;
  readonly recording?: Recording | undefined;
}): PreviewRule {
  const ext = extensionOf(file.fileName);
  const rule = ruleOf(ext, file.recording);
  if (!rule) return { kind: 'none', icon: own(ICONS, ext) ?? 'file', thumbnail: false };
  if (rule.kind === 'image' && file.size > IMAGE_PREVIEW_MAX_BYTES)
    return { kind: 'none', icon: 'image', thumbnail: false };
  return {
    kind: rule.kind,
    contentType: rule.contentType,
    icon: rule.kind,
    thumbnail: rule.kind === 'image' && file.size > 0,
  };
}

/** Only these types are ever served inline; a test pins that no rule names another. */
export function isSafeInlineType(contentType: string): boolean {
  return (
    contentType === TEXT_CONTENT_TYPE ||
    contentType === PDF_CONTENT_TYPE ||
    /^(image\/(jpeg|png|gif|webp|avif)|audio\/[a-z0-9.+-]+|video\/[a-z0-9.+-]+)$/u.test(contentType)
  );
}

/** Every content type a rule can hand out (for the test that they are all safe inline). */
export const PREVIEW_CONTENT_TYPES: readonly string[] = [
  ...new Set([
    ...Object.values(IMAGE_TYPES),
    ...Object.values(AUDIO_TYPES),
    ...Object.values(VIDEO_TYPES),
    'audio/webm',
    PDF_CONTENT_TYPE,
    TEXT_CONTENT_TYPE,
  ]),
];

// ---- thumbnails ------------------------------------------------------------------------------

/** The longest side of a thumbnail: the page shows 200 px squares, sharp at twice that for dense screens. */
export const THUMBNAIL_MAX_PX = 400;
export const THUMBNAIL_CONTENT_TYPE = 'image/webp';

/** Beside the object, in the same bucket and under the transfer's prefix: purged with it. */
export function thumbnailKeyOf(objectKey: string): string {
  return `${objectKey}.thumb.webp`;
}

// ---- API -------------------------------------------------------------------------------------

// POST /getDownload/previews takes the download page's body (transfer-api.ts getDownloadRequestSchema:
// id, the password once unlocked, the recipient id) and an optional `cursor`; GET
// /transfers/{id}/previews the TransferModal's JWT and an optional `?cursor=`.

export type ThumbnailState =
  /** made: its URL */
  | { readonly status: 'ready'; readonly url: string }
  /** being made (or just asked for): ask again shortly */
  | { readonly status: 'pending' }
  /** the image could not be read: show the icon */
  | { readonly status: 'failed' };

export interface FilePreview {
  readonly fileId: string;
  readonly kind: PreviewKind;
  readonly icon: IconKind;
  /** set for a voice memo or video recorded in the send form */
  readonly recording?: Recording;
  /** the whole file, inline with the kind's safe type, for `expiresIn` seconds (absent for 'none') */
  readonly url?: string;
  /** images up to 100 MB */
  readonly thumbnail?: ThumbnailState;
}

/**
 * Files one previews answer covers at most: with a Lambda session token a presigned URL is
 * ~1.7 KB and an image has two, so an unpaged answer passes Lambda's 6 MB near 1,650 images.
 */
export const PREVIEWS_PER_PAGE = 100;

export interface PreviewsResponse {
  /** lifetime of every URL in the answer, from when it was made (spec §9: image URLs 600 s) */
  readonly expiresIn: number;
  /** at most PREVIEWS_PER_PAGE files, in the transfer's order */
  readonly files: readonly FilePreview[];
  /** set when more files follow: ask again with it as `cursor` (query of GET, field of POST) */
  readonly nextCursor?: string;
}
