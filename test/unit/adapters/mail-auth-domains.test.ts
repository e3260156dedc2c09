import { beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import {
  CreateEmailIdentityCommand,
  DeleteEmailIdentityCommand,
  GetAccountCommand,
  GetEmailIdentityCommand,
  SESv2Client,
  SendEmailCommand,
} from '@aws-sdk/client-sesv2';
import {
  AdminCreateUserCommand,
  CognitoIdentityProviderClient,
  InitiateAuthCommand,
} from '@aws-sdk/client-cognito-identity-provider';
import {
  CloudFrontClient,
  DeleteDistributionTenantCommand,
  GetDistributionTenantCommand,
  UpdateDistributionTenantCommand,
} from '@aws-sdk/client-cloudfront';
import { serviceError, useUnitEnv } from '../../helpers/aws-mock';
import { checkMailReachable, sendMail } from '../../../functions/adapters/mailer';
import { AuthFailedError, adminCreateUser, passwordAuth, refreshAuth } from '../../../functions/adapters/auth';
import { createIdentity, deleteIdentity, getIdentity } from '../../../functions/adapters/email-identities';
import { cloudFrontTenantProvider } from '../../../functions/adapters/cdn-tenants-cloudfront';

useUnitEnv({ SES_CONFIGURATION_SET: 'unit-set' });

const ses = mockClient(SESv2Client);
const cognito = mockClient(CognitoIdentityProviderClient);
const cloudFront = mockClient(CloudFrontClient);

beforeEach(() => {
  ses.reset();
  cognito.reset();
  cloudFront.reset();
});

describe('mailer', () => {
  const msg = {
    to: ['r@example.com'],
    subject: 'Files for you\r\nBcc: x@evil.test',
    html: '<p>hi</p>',
    text: 'hi',
    replyTo: 's@example.com',
    tags: { kind: 'transfer', 'bad name!': 'v.1' },
  };

  it('sends one SendEmail: From MAIL_FROM, one line of subject, HTML and text in UTF-8, the configuration set, tags SES accepts', async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-1' });
    expect(await sendMail(msg)).toEqual({ messageId: 'm-1' });
    expect(ses.commandCalls(SendEmailCommand)[0]!.args[0].input).toEqual({
      FromEmailAddress: 'SendBridge <no-reply@example.com>',
      Destination: { ToAddresses: ['r@example.com'] },
      ReplyToAddresses: ['s@example.com'],
      Content: {
        Simple: {
          Subject: { Data: 'Files for you Bcc: x@evil.test', Charset: 'UTF-8' },
          Body: { Html: { Data: '<p>hi</p>', Charset: 'UTF-8' }, Text: { Data: 'hi', Charset: 'UTF-8' } },
        },
      },
      ConfigurationSetName: 'unit-set',
      EmailTags: [
        { Name: 'kind', Value: 'transfer' },
        { Name: 'bad_name_', Value: 'v_1' },
      ],
    });
  });

  it("a sender's own From replaces MAIL_FROM", async () => {
    ses.on(SendEmailCommand).resolves({ MessageId: 'm-2' });
    await sendMail({ ...msg, from: 'Ann <ann@ann.example>' });
    expect(ses.commandCalls(SendEmailCommand)[0]!.args[0].input.FromEmailAddress).toBe('Ann <ann@ann.example>');
  });

  it('refuses a line break in an address, and no recipient, before calling SES', async () => {
    await expect(sendMail({ ...msg, replyTo: 'a@example.com\nBcc: x@evil.test' })).rejects.toThrow('line break');
    await expect(sendMail({ ...msg, to: [] })).rejects.toThrow('at least one recipient');
    expect(ses.calls()).toHaveLength(0);
  });

  it("SES's refusal and a missing MessageId are errors", async () => {
    ses
      .on(SendEmailCommand)
      .rejectsOnce(serviceError('MessageRejected', 'Email address is not verified.'))
      .resolvesOnce({});
    await expect(sendMail(msg)).rejects.toMatchObject({ name: 'MessageRejected' });
    await expect(sendMail(msg)).rejects.toThrow('no MessageId');
  });

  it("reachability is the account's sending status", async () => {
    ses.on(GetAccountCommand).resolves({ SendingEnabled: false });
    expect(await checkMailReachable()).toEqual({ sendingEnabled: false });
  });
});

describe('auth (Cognito)', () => {
  const jwt = (payload: object) => `h.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.s`;

  it('a password sign-in sends USER_PASSWORD_AUTH with the app client and reads sub, exp, jti and iat from the token', async () => {
    cognito.on(InitiateAuthCommand).resolves({
      AuthenticationResult: {
        AccessToken: jwt({ sub: 'u1', exp: 2_000_000_000, jti: 'j1', iat: 1_999_999_100 }),
        RefreshToken: 'r',
      },
    });
    expect(await passwordAuth('a@example.com', 'pw')).toEqual({
      accessToken: expect.any(String),
      refreshToken: 'r',
      expiresAt: 2_000_000_000_000,
      sub: 'u1',
      jti: 'j1',
      iat: 1_999_999_100,
    });
    expect(cognito.commandCalls(InitiateAuthCommand)[0]!.args[0].input).toEqual({
      ClientId: 'unitclient',
      AuthFlow: 'USER_PASSWORD_AUTH',
      AuthParameters: { USERNAME: 'a@example.com', PASSWORD: 'pw' },
    });
  });

  it('every wrong-credential error name becomes AuthFailedError; anything else is thrown as is', async () => {
    for (const name of [
      'NotAuthorizedException',
      'InvalidPasswordException',
      'UserNotFoundException',
      'UserNotConfirmedException',
      'PasswordResetRequiredException',
    ]) {
      cognito.on(InitiateAuthCommand).rejects(serviceError(name));
      await expect(passwordAuth('a@example.com', 'pw')).rejects.toBeInstanceOf(AuthFailedError);
    }
    cognito.on(InitiateAuthCommand).rejects(serviceError('TooManyRequestsException'));
    await expect(passwordAuth('a@example.com', 'pw')).rejects.toMatchObject({ name: 'TooManyRequestsException' });
  });

  it('a refresh without tokens in the answer (a challenge) is AuthFailedError', async () => {
    cognito.on(InitiateAuthCommand).resolves({ ChallengeName: 'NEW_PASSWORD_REQUIRED' });
    await expect(refreshAuth('r')).rejects.toBeInstanceOf(AuthFailedError);
    expect(cognito.commandCalls(InitiateAuthCommand)[0]!.args[0].input).toMatchObject({
      AuthFlow: 'REFRESH_TOKEN_AUTH',
      AuthParameters: { REFRESH_TOKEN: 'r' },
    });
  });

  it('creating a user suppresses Cognito\'s mail, marks the address verified, and answers the sub; an existing user is "exists"', async () => {
    cognito
      .on(AdminCreateUserCommand)
      .resolvesOnce({ User: { Username: 'x', Attributes: [{ Name: 'sub', Value: 'sub-1' }] } })
      .rejectsOnce(serviceError('UsernameExistsException'));
    expect(await adminCreateUser('a@example.com')).toBe('sub-1');
    expect(await adminCreateUser('a@example.com')).toBe('exists');
    expect(cognito.commandCalls(AdminCreateUserCommand)[0]!.args[0].input).toEqual({
      UserPoolId: 'us-east-1_unit',
      Username: 'a@example.com',
      MessageAction: 'SUPPRESS',
      UserAttributes: [
        { Name: 'email', Value: 'a@example.com' },
        { Name: 'email_verified', Value: 'true' },
      ],
    });
  });
});

describe('email identities (SES in AWS)', () => {
  it("creating answers SES's DKIM tokens; an identity that exists already is read instead", async () => {
    ses
      .on(CreateEmailIdentityCommand)
      .resolvesOnce({ DkimAttributes: { Tokens: ['t1', 't2', 't3'], Status: 'PENDING' } })
      .rejectsOnce(serviceError('AlreadyExistsException'));
    ses.on(GetEmailIdentityCommand).resolves({ DkimAttributes: { Tokens: ['t1'], Status: 'SUCCESS' } });
    expect(await createIdentity('ann.example')).toEqual({
      domain: 'ann.example',
      dkimTokens: ['t1', 't2', 't3'],
      status: 'PENDING',
    });
    expect(await createIdentity('ann.example')).toEqual({
      domain: 'ann.example',
      dkimTokens: ['t1'],
      status: 'SUCCESS',
    });
    expect(ses.commandCalls(CreateEmailIdentityCommand)[0]!.args[0].input).toEqual({ EmailIdentity: 'ann.example' });
  });

  it('a gone identity reads as undefined and deletes without error; other errors are thrown', async () => {
    ses
      .on(GetEmailIdentityCommand)
      .rejectsOnce(serviceError('NotFoundException', 'gone', 404))
      .rejectsOnce(serviceError('TooManyRequestsException', 'slow', 429));
    ses.on(DeleteEmailIdentityCommand).rejects(serviceError('NotFoundException', 'gone', 404));
    expect(await getIdentity('ann.example')).toBeUndefined();
    await expect(getIdentity('ann.example')).rejects.toMatchObject({ name: 'TooManyRequestsException' });
    await expect(deleteIdentity('ann.example')).resolves.toBeUndefined();
  });

  it('an unknown DKIM status reads as PENDING', async () => {
    ses.on(GetEmailIdentityCommand).resolves({ DkimAttributes: { Tokens: [], Status: 'SOMETHING_NEW' as never } });
    expect((await getIdentity('ann.example'))!.status).toBe('PENDING');
  });
});

describe('CDN tenants (CloudFront)', () => {
  const provider = cloudFrontTenantProvider({ TENANT_DISTRIBUTION_ID: 'EDIST', CONNECTION_GROUP_ID: 'cg-1' })!;

  it('a tenant CloudFront no longer has is deleted already', async () => {
    cloudFront.on(GetDistributionTenantCommand).rejects(serviceError('EntityNotFound', 'gone', 404));
    expect(await provider.remove('f.example.com', 'dt-1')).toBe('deleted');
    expect(cloudFront.commandCalls(DeleteDistributionTenantCommand)).toHaveLength(0);
  });

  it('a disabled tenant still deploying waits; a deployed one is deleted with If-Match', async () => {
    cloudFront
      .on(GetDistributionTenantCommand)
      .resolvesOnce({ DistributionTenant: { Id: 'dt-1', Enabled: false, Status: 'InProgress' }, ETag: 'E1' })
      .resolvesOnce({ DistributionTenant: { Id: 'dt-1', Enabled: false, Status: 'Deployed' }, ETag: 'E2' });
    cloudFront.on(DeleteDistributionTenantCommand).resolves({});
    expect(await provider.remove('f.example.com', 'dt-1')).toBe('pending');
    expect(await provider.remove('f.example.com', 'dt-1')).toBe('deleted');
    expect(cloudFront.commandCalls(DeleteDistributionTenantCommand)[0]!.args[0].input).toEqual({
      Id: 'dt-1',
      IfMatch: 'E2',
    });
    expect(cloudFront.commandCalls(UpdateDistributionTenantCommand)).toHaveLength(0);
  });

  it("a throttled read is the job's error (it tries again), not a deletion", async () => {
    cloudFront.on(GetDistributionTenantCommand).rejects(serviceError('Throttling', 'Rate exceeded', 400));
    await expect(provider.remove('f.example.com', 'dt-1')).rejects.toMatchObject({ name: 'Throttling' });
  });
});
