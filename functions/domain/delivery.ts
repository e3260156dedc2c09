/**
 * A delivery: one download that the storage reported as served to the end (every byte of the
 * file or ZIP, possibly over several ranged requests). Downloads limits count deliveries, not
 * page views; a delivery is what a signed receipt attests. Written once, never changed.
 */

/** Who received it, as far as the product knows. */
export type DeliveryRecipient =
  /** proved their address with a mailed code before downloading */
  | { readonly kind: 'verified'; readonly email: string }
  /** used the personal link mailed to this address (not proof of who held it) */
  | { readonly kind: 'personal'; readonly email: string }
  /** anyone holding the transfer's link */
  | { readonly kind: 'link' };

export interface DeliveredFile {
  readonly fileId: string;
  /** the file's path in the transfer (folders included) */
  readonly path: string;
  readonly size: number;
  /** hex SHA-256 from the transfer's manifest; absent while the digest job has not reached it */
  readonly sha256?: string;
}

export interface DeliveryRecord {
  readonly slug: string;
  /** unique per transfer; the grant the download's URL was issued under */
  readonly deliveryId: string;
  /** epoch ms: the URL was issued */
  readonly startedAt: number;
  /** epoch ms: the last byte was served */
  readonly at: number;
  /** one file, or "Download all" */
  readonly what: 'file' | 'zip';
  readonly recipient: DeliveryRecipient;
  /** ISO 3166 alpha-2, or 'XX' when unknown */
  readonly countryCode: string;
  /** the files delivered: one for a file, every file of the ZIP */
  readonly files: readonly DeliveredFile[];
  /** bytes of the object served (the file's, or the ZIP's) */
  readonly bytes: number;
  /** every byte of the object was served (the ranges served cover it whole) */
  readonly servedWhole: boolean;
}

/** A delivery as the `transfer.delivered` webhook carries it (ISO times; a SHA-256 not computed yet is null). */
export function deliveryWebhookData(d: DeliveryRecord) {
  return {
    deliveryId: d.deliveryId,
    what: d.what,
    recipient: d.recipient,
    country: d.countryCode,
    startedAt: new Date(d.startedAt).toISOString(),
    deliveredAt: new Date(d.at).toISOString(),
    bytes: d.bytes,
    servedWhole: d.servedWhole,
    files: d.files.map((f) => ({ fileId: f.fileId, path: f.path, size: f.size, sha256: f.sha256 ?? null })),
  };
}
