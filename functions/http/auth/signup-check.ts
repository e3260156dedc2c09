import { registrationCodeSchema } from '../../domain/auth-api';
import { httpRoute } from '../../lib/http';
import { checkRegistrationCode } from '../../services/accounts';

/** POST /newsignupverify/check: registration step 2; 403 'Incorrect code, ...' when wrong. */
export const handler = httpRoute({ body: registrationCodeSchema }, async ({ body, sourceIp }) => ({
  body: await checkRegistrationCode(body.email, body.code, sourceIp),
}));
