import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** 20 base32 characters (100 bits) from the CSPRNG. */
function base32(length = 20): string {
  let out = '';
  for (const b of randomBytes(length)) out += ALPHABET[b & 31];
  return out;
}

export const newEndpointId = () => `we_${base32()}`;
export const newDeliveryId = () => `wd_${base32()}`;
/**
 * An endpoint's signing secret as Standard Webhooks writes it: `whsec_` + 32 random bytes in
 * standard base64 (44 characters, one `=`; the secrets before it were 43 URL-safe ones).
 */
export const newWebhookSecret = () => `whsec_${randomBytes(32).toString('base64')}`;
