import * as z from 'zod/mini';
import { registrationEmailSchema } from '../../domain/auth-api';
import { httpRoute } from '../../lib/http';
import { startRegistration } from '../../services/accounts';

const body = z.extend(registrationEmailSchema, { registrationToken: z.optional(z.string().check(z.maxLength(64))) });

/** POST /newsignupverify: registration step 1 (409 if taken, 200 if already proven, else 202 and a code by mail). */
export const handler = httpRoute({ body }, async ({ body, sourceIp }) => {
  const result = await startRegistration(body.email, body.registrationToken, body.lang, sourceIp);
  return { status: result.verified ? 200 : 202, body: result };
});
