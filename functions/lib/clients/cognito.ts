/**
 * Cognito user pools through the AWS SDK v3, one CognitoIdentityProviderClient per process,
 * created on first use; the endpoint comes from configuration (cognito-local), unset in AWS.
 * Imported on demand by adapters/auth.ts with the commands it sends: only the sign-in, sign-up,
 * account and health routes talk to Cognito. InitiateAuth and RevokeToken are public
 * operations, which the SDK sends unsigned.
 */
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { config } from '../env';
import { REQUEST_HANDLER } from './timeouts';

export {
  AdminCreateUserCommand,
  AdminDeleteUserCommand,
  AdminSetUserPasswordCommand,
  DescribeUserPoolCommand,
  InitiateAuthCommand,
  RevokeTokenCommand,
} from '@aws-sdk/client-cognito-identity-provider';

let client: CognitoIdentityProviderClient | undefined;

export function cognitoIdp(): CognitoIdentityProviderClient {
  if (!client) {
    const c = config();
    client = new CognitoIdentityProviderClient({
      region: c.awsRegion,
      requestHandler: REQUEST_HANDLER,
      ...(c.endpoints.cognito ? { endpoint: c.endpoints.cognito } : {}),
    });
  }
  return client;
}
