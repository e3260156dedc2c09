/**
 * Cognito user pools (AWS JSON 1.1), the operations functions/ uses, with the SDK's types.
 * InitiateAuth and RevokeToken are public operations: sent unsigned, as the SDK sends them.
 */
import type {
  AdminCreateUserCommandInput,
  AdminCreateUserCommandOutput,
  AdminDeleteUserCommandInput,
  AdminSetUserPasswordCommandInput,
  DescribeUserPoolCommandInput,
  DescribeUserPoolCommandOutput,
  InitiateAuthCommandInput,
  InitiateAuthCommandOutput,
  RevokeTokenCommandInput,
} from '@aws-sdk/client-cognito-identity-provider';
import { config } from '../env';
import { jsonRpc, serviceEndpoint } from './core';

type Out<T> = Omit<T, '$metadata'>;

export function createCognito(opts: { region: string; endpoint?: string | undefined }) {
  const target = {
    service: 'cognito-idp',
    region: opts.region,
    endpoint: serviceEndpoint('cognito-idp', opts.region, opts.endpoint),
    targetPrefix: 'AWSCognitoIdentityProviderService',
    jsonVersion: '1.1',
  } as const;
  const signed = <T>(operation: string, input: unknown) => jsonRpc<T>(target, operation, input);
  const unsigned = <T>(operation: string, input: unknown) => jsonRpc<T>({ ...target, unsigned: true }, operation, input);
  return {
    initiateAuth: (input: InitiateAuthCommandInput) => unsigned<Out<InitiateAuthCommandOutput>>('InitiateAuth', input),
    revokeToken: (input: RevokeTokenCommandInput) => unsigned<Record<string, never>>('RevokeToken', input),
    /** Dates (UserCreateDate...) stay epoch seconds here: nothing reads them. */
    adminCreateUser: (input: AdminCreateUserCommandInput) => signed<Out<AdminCreateUserCommandOutput>>('AdminCreateUser', input),
    adminSetUserPassword: (input: AdminSetUserPasswordCommandInput) => signed<Record<string, never>>('AdminSetUserPassword', input),
    adminDeleteUser: (input: AdminDeleteUserCommandInput) => signed<Record<string, never>>('AdminDeleteUser', input),
    describeUserPool: (input: DescribeUserPoolCommandInput) => signed<Out<DescribeUserPoolCommandOutput>>('DescribeUserPool', input),
  };
}

export type Cognito = ReturnType<typeof createCognito>;

let client: Cognito | undefined;

export function cognitoIdp(): Cognito {
  if (!client) {
    const c = config();
    client = createCognito({ region: c.awsRegion, endpoint: c.endpoints.cognito });
  }
  return client;
}
