import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { config } from './env';

/** The Cognito client; see clients.ts. */
let cognito: CognitoIdentityProviderClient | undefined;

export function cognitoIdp(): CognitoIdentityProviderClient {
  if (!cognito) {
    const c = config();
    cognito = new CognitoIdentityProviderClient({ region: c.awsRegion, endpoint: c.endpoints.cognito });
  }
  return cognito;
}
