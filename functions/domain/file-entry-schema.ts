/** The schema of a file in a send (spec §5), on the plain rules of file-filters.ts. */
import * as z from 'zod/mini';
import { normalisePath, normaliseSegment, type FileEntry } from './file-filters';
import { UPLOAD_SPEED_MAX_BPS } from './upload';

/** An end-to-end encrypted file's public parameters (docs/e2e-format.md): 16 bytes of salt, base64url. */
export const e2eFileSchema = z.object({
  salt: z.string().check(z.regex(/^[A-Za-z0-9_-]{22}$/u, 'invalid_encryption')),
  plainSize: z.number().check(z.int(), z.nonnegative()),
});

/**
 * A file of a send, normalised once on the server at creation (only the normalised form is
 * stored): the name as a segment, the path as a path whose last segment is the name, so the
 * single download and the ZIP entry always carry the same checked name.
 */
export const fileEntryInputSchema = z.object({
  fileName: z.string().check(z.minLength(1), z.maxLength(1024)),
  size: z.number().check(z.int(), z.nonnegative()),
  itemPath: z.optional(z.string().check(z.maxLength(4096))),
  e2e: z.optional(e2eFileSchema),
});

export const fileEntrySchema = z.pipe(
  fileEntryInputSchema,
  z.transform((f: z.output<typeof fileEntryInputSchema>, ctx): FileEntry => {
    const fileName = normaliseSegment(normalisePath(f.fileName).split('/').pop() ?? '');
    if (fileName === '' || fileName === '.' || fileName === '..') {
      // zod/mini's transform context has no addIssue: the issue goes on the payload itself
      ctx.issues.push({ code: 'custom', path: ['fileName'], message: 'invalid_file_name', input: f });
      return z.NEVER;
    }
    const dirs = f.itemPath === undefined ? [] : normalisePath(f.itemPath).split('/').slice(0, -1).filter(Boolean);
    return {
      fileName,
      size: f.size,
      ...(f.itemPath === undefined ? {} : { itemPath: [...dirs, fileName].join('/') }),
      ...(f.e2e ? { e2e: f.e2e } : {}),
    };
  }),
);

/** A sender's measured upload speed in bytes per second, as a create or addFiles body may carry it. */
export const uploadSpeedSchema = z.number().check(z.positive(), z.maximum(UPLOAD_SPEED_MAX_BPS));
