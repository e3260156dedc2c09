import { redeemSchema } from '../../domain/billing-api';
import { httpRoute } from '../../lib/http';
import { unauthorized } from '../../lib/errors';
import { redeem } from '../../services/billing';

/** POST /appsumo/redeem (JWT, spec §3 isSumo, /appsumoforever): one lifetime code, stacking to the next plan tier. */
export const handler = httpRoute({ body: redeemSchema }, async ({ body, claims }) => {
  if (typeof claims?.sub !== 'string') throw unauthorized();
  return { body: await redeem(claims.sub, body.code, Date.now()) };
});
