/**
 * S3's conditional and ranged reads that s3rver skips, added to its GetObject (and HeadObject)
 * so resumed downloads behave locally as against S3: `If-Match` that does not hold is 412
 * PreconditionFailed; `If-Range` whose ETag (or date) no longer holds drops the Range, so the
 * whole object comes back as 200 (a resume never glues two versions together); a suffix range
 * `bytes=-N` is the last N bytes (s3rver reads it as `bytes=0-N`). s3rver already answers plain
 * ranges with 206 and Content-Range, unsatisfiable ones with 416, and sends Accept-Ranges and ETag.
 */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

interface Metadata {
  readonly etag: string;
  readonly 'last-modified': string;
  readonly 'content-length': number;
}

interface GetContext {
  headers: Record<string, string | undefined>;
  params: { bucket: string; key: string };
  store: { getMetadata(bucket: string, key: string): Promise<Metadata> };
}

type S3ErrorClass = new (code: string, message: string, detail?: Record<string, unknown>) => Error;

/** Whether an If-Range validator still names the stored object (RFC 9110 13.1.5: a strong ETag match, or the exact date). */
export function ifRangeHolds(validator: string, etag: string, lastModified: string): boolean {
  const v = validator.trim();
  if (v.startsWith('"') || v.startsWith('W/')) return v === etag;
  const at = Date.parse(v);
  return Number.isFinite(at) && at === Date.parse(lastModified);
}

/** Whether an If-Match list holds for the stored ETag (`*` holds for any existing object). */
export function ifMatchHolds(header: string, etag: string): boolean {
  return header
    .split(',')
    .map((s) => s.trim())
    .some((s) => s === '*' || s === etag);
}

/** Patches s3rver's object controller (idempotent); false when its internals moved. */
export function applyS3ConditionalReads(): boolean {
  const ctrl = require('s3rver/lib/controllers/object.js') as {
    getObject?: (ctx: GetContext) => Promise<void>;
    __s3ConditionalReads?: true;
  };
  const S3Error = require('s3rver/lib/models/error.js') as S3ErrorClass;
  const getObject = ctrl.getObject;
  if (typeof getObject !== 'function') return false;
  if (ctrl.__s3ConditionalReads) return true;
  ctrl.__s3ConditionalReads = true;
  ctrl.getObject = async function (ctx) {
    const { range, 'if-match': ifMatch, 'if-range': ifRange } = ctx.headers;
    const suffix = range ? /^bytes=-(\d+)$/u.exec(range.trim()) : null;
    if (ifMatch || (range && ifRange) || suffix) {
      // an absent object: s3rver's own GetObject answers NoSuchKey
      const meta = await ctx.store.getMetadata(ctx.params.bucket, ctx.params.key).catch(() => undefined);
      if (meta) {
        if (ifMatch && !ifMatchHolds(ifMatch, meta.etag))
          throw new S3Error('PreconditionFailed', 'At least one of the pre-conditions you specified did not hold', {
            Condition: 'If-Match',
          });
        if (range && ifRange && !ifRangeHolds(ifRange, meta.etag, meta['last-modified'])) delete ctx.headers.range;
        else if (suffix) {
          const size = Number(meta['content-length']);
          ctx.headers.range = `bytes=${Math.max(0, size - Number(suffix[1]))}-`;
        }
      }
    }
    return getObject.call(this, ctx);
  };
  return true;
}
