import { DescribeUserPoolCommand } from '@aws-sdk/client-cognito-identity-provider';
import { cognitoIdp } from '../lib/clients';
import { config } from '../lib/env';

export async function describeUserPool(): Promise<{ id: string; name: string | undefined }> {
  const out = await cognitoIdp().send(new DescribeUserPoolCommand({ UserPoolId: config().userPoolId }));
  if (!out.UserPool?.Id) throw new Error('user pool not found');
  return { id: out.UserPool.Id, name: out.UserPool.Name };
}
