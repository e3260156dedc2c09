/**
 * Branding contract (spec §2 /dash/account/customize and /dash/account/powered-by).
 *
 *   GET   /branding/me              (JWT) the storage owner's branding, editable or not   -> 200 OwnBranding
 *   PATCH /branding/me              (JWT) change it (admins and solo users only)           -> 200 OwnBranding | 400 | 403
 *   POST  /branding/images          (JWT) presigned PUT for a logo or background image     -> 200 ImageUploadResponse | 400 | 403
 *   GET   /branding?host=<host>     public: the branding of a verified custom domain's owner -> 200 HostBranding | 404
 *
 * `POST /getDownload` and `GET /r/{id}` carry `branding: PublicBranding` of the sender (or
 * requester) as storage owner (a team member's transfers show the admin's branding).
 */
import * as z from 'zod/mini';
import { BRAND_IMAGE_MAX_BYTES, BRAND_IMAGE_TYPES, HEX_COLOUR } from './branding';

const colour = z.string().check(z.trim(), z.regex(HEX_COLOUR));
/** an uploaded image's key from POST /branding/images; '' removes it */
const imageKey = z.string().check(z.maxLength(300));

export const brandingUpdateSchema = z.object({
  logoKey: z.optional(imageKey),
  showLogoNav: z.optional(z.boolean()),
  backgroundKey: z.optional(imageKey),
  /** '' removes it */
  backgroundColor: z.optional(z.union([colour, z.literal('')])),
  accentColor: z.optional(z.union([colour, z.literal('')])),
  showPoweredBy: z.optional(z.boolean()),
});
export type BrandingUpdateInput = z.output<typeof brandingUpdateSchema>;

export const brandingImageSchema = z.object({
  kind: z.enum(['logo', 'background']),
  contentType: z.enum(BRAND_IMAGE_TYPES, 'image_type_not_allowed'),
  size: z.number().check(z.int(), z.positive(), z.maximum(BRAND_IMAGE_MAX_BYTES.background, 'image_too_large')),
});

/** Host names only: letters, digits, dots and hyphens (a port is dropped). */
export const hostQuerySchema = z.object({
  host: z.string().check(z.trim(), z.maxLength(253), z.regex(/^[A-Za-z0-9.-]+(?::\d{1,5})?$/u)),
});

/** What a recipient's page shows of the sender's branding; URLs are short-lived presigned GETs. */
export interface PublicBranding {
  readonly logoUrl: string | null;
  readonly backgroundUrl: string | null;
  /** `#rrggbb` or null */
  readonly backgroundColor: string | null;
  readonly accentColor: string | null;
  /** black or white, whichever reads better on the accent colour */
  readonly accentTextColor: string | null;
  /** the server's decision: the plan may remove the line and the owner did */
  readonly showPoweredBy: boolean;
}

export interface HostBranding extends PublicBranding {
  readonly companyName: string | null;
}

export interface OwnBranding extends PublicBranding {
  readonly showLogoNav: boolean;
  /** false for team members: the admin manages the branding */
  readonly editable: boolean;
  /** the plan allows removing 'Powered by SendBridge' */
  readonly canRemovePoweredBy: boolean;
  readonly companyName: string | null;
}
