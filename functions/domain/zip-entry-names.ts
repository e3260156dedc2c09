/**
 * The names of a ZIP's entries: sanitised (no zip-slip, no device names, no disguising
 * characters) and unique. Pure, for the server's archives (adapters/zip) and the browser's ZIP of
 * an end-to-end encrypted transfer alike.
 */

/** Longest path segment most file systems accept (bytes of UTF-8). */
const MAX_SEGMENT_BYTES = 255;
/** Longest whole name we write; beyond this only the file name itself is kept. */
const MAX_NAME_BYTES = 4096;
export const FALLBACK_NAME = 'unnamed';

// C0/C1 controls and the bidi overrides that can disguise an extension ("gpj.exe" shown as "exe.jpg").
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

// "CON", "nul.txt", "COM1.log": Windows opens the device instead of creating the file.
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\.|$)/i;

const encoder = new TextEncoder();

function utf8Length(s: string): number {
  return encoder.encode(s).length;
}

/** Cuts to at most `max` UTF-8 bytes on a code point boundary. */
function cutUtf8(s: string, max: number): string {
  if (utf8Length(s) <= max) return s;
  let out = '';
  let bytes = 0;
  for (const ch of s) {
    const n = utf8Length(ch);
    if (bytes + n > max) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/** Shortens a segment to the file-system limit, keeping a short extension. */
function fitSegment(seg: string): string {
  if (utf8Length(seg) <= MAX_SEGMENT_BYTES) return seg;
  const dot = seg.lastIndexOf('.');
  const ext = dot > 0 && utf8Length(seg.slice(dot)) <= 16 ? seg.slice(dot) : '';
  return cutUtf8(seg.slice(0, seg.length - ext.length), MAX_SEGMENT_BYTES - utf8Length(ext)) + ext;
}

/**
 * Makes a user-supplied file name or relative path safe as a ZIP entry name: forward slashes,
 * no absolute paths or drive letters, no '.'/'..' segments, no control characters, never
 * empty. Extraction of the result stays inside the target folder (no zip-slip).
 */
export function sanitizeEntryName(raw: string): string {
  const cleaned = raw.normalize('NFC').replace(UNSAFE_CHARS, '').replace(/\\/g, '/');
  const segments = cleaned
    .split('/')
    .map((s, i) => (i === 0 ? s.replace(/^[A-Za-z]:/, '') : s))
    // Windows trims trailing dots and spaces, so ". ." or "..." would become "." or ".." there.
    .filter((s) => !/^[. ]*$/.test(s))
    .map((s) => (WINDOWS_DEVICE.test(s) ? `_${s}` : s))
    .map(fitSegment);
  if (!segments.length) return FALLBACK_NAME;
  const joined = segments.join('/');
  return utf8Length(joined) <= MAX_NAME_BYTES ? joined : segments[segments.length - 1]!;
}

/**
 * Assigns each file a sanitised, unique entry name: "a.txt", "a (1).txt", ... Names are
 * compared case-insensitively (macOS and Windows extract "A.txt" over "a.txt"), and a file
 * never takes a folder's name or the other way round (extraction would fail or overwrite).
 */
export class EntryNamer {
  private readonly files = new Set<string>();
  private readonly dirs = new Set<string>();
  /** requested folder path (lower case) -> folder path given to it */
  private readonly dirAlias = new Map<string, string>();
  /** next suffix to try per requested name, so many duplicates stay linear */
  private readonly nextSuffix = new Map<string, number>();

  name(raw: string): string {
    const segments = sanitizeEntryName(raw).split('/');
    const leaf = segments.pop()!;
    let parent = '';
    let requested = '';
    for (const seg of segments) {
      requested = requested ? `${requested}/${seg}` : seg;
      const key = requested.toLowerCase();
      let assigned = this.dirAlias.get(key);
      if (assigned === undefined) {
        assigned = this.unique(parent, seg, false);
        this.dirAlias.set(key, assigned);
        this.dirs.add(assigned.toLowerCase());
      }
      parent = assigned;
    }
    const name = this.unique(parent, leaf, true);
    this.files.add(name.toLowerCase());
    return name;
  }

  private taken(path: string): boolean {
    const k = path.toLowerCase();
    return this.files.has(k) || this.dirs.has(k);
  }

  private unique(parent: string, seg: string, isFile: boolean): string {
    const join = (s: string) => (parent ? `${parent}/${s}` : s);
    const first = join(seg);
    if (!this.taken(first)) return first;
    const dot = isFile ? seg.lastIndexOf('.') : -1;
    const stem = dot > 0 ? seg.slice(0, dot) : seg;
    const ext = dot > 0 ? seg.slice(dot) : '';
    const key = first.toLowerCase();
    for (let i = this.nextSuffix.get(key) ?? 1; ; i++) {
      const candidate = join(`${stem} (${i})${ext}`);
      if (!this.taken(candidate)) {
        this.nextSuffix.set(key, i + 1);
        return candidate;
      }
    }
  }
}
