import { beforeAll, describe, expect, it } from 'vitest';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { TABLE_GSIS, TABLE_KEYS, TTL_ATTRIBUTE } from '../../functions/data/table-schema';
import { resourcesOf, synthSendBridge, type TestApp } from './synth';

let t: TestApp;
let core: Template;

beforeAll(() => {
  t = synthSendBridge();
  core = t.template(t.core);
});

describe('CoreStack', () => {
  it('lives in the home region derived from the first storage region', () => {
    // hongkong is first; ap-east-1 has no SES, so the core goes to Singapore (lib/region-config.ts).
    expect(t.core.region).toBe('ap-southeast-1');
    expect(t.web.region).toBe('ap-southeast-1');
    expect(synthSendBridge({ regions: 'frankfurt', homeRegion: 'eu-west-1' }).core.region).toBe('eu-west-1');
  });

  it('has one on-demand table with the shared key schema, GSIs, PITR, TTL and encryption, retained', () => {
    const tables = resourcesOf(core, 'AWS::DynamoDB::GlobalTable');
    expect(Object.keys(tables)).toHaveLength(1);
    const table = Object.values(tables)[0]!;
    expect(table.DeletionPolicy).toBe('Retain');
    expect(table.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      KeySchema: [
        { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
        { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
      ],
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      // SSEEnabled false = the DynamoDB-owned key (tables are always encrypted at rest).
      SSESpecification: { SSEEnabled: false },
      Replicas: [
        expect.objectContaining({
          Region: 'ap-southeast-1',
          PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          DeletionProtectionEnabled: true,
        }),
      ],
    });
    const gsis = table.Properties!.GlobalSecondaryIndexes as Array<{
      IndexName: string;
      KeySchema: unknown[];
      Projection: unknown;
    }>;
    expect(gsis.map((g) => g.IndexName)).toEqual(TABLE_GSIS.map((g) => g.indexName));
    for (const g of TABLE_GSIS) {
      expect(gsis.find((x) => x.IndexName === g.indexName)).toMatchObject({
        KeySchema: [
          { AttributeName: g.partitionKey, KeyType: 'HASH' },
          { AttributeName: g.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: 'ALL' },
      });
    }
  });

  it('has a user pool keyed by email, admin-created users only, and the spec password rule', () => {
    const pool = Object.values(resourcesOf(core, 'AWS::Cognito::UserPool'))[0]!;
    expect(pool.DeletionPolicy).toBe('Retain');
    expect(pool.Properties).toMatchObject({
      UsernameAttributes: ['email'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      Policies: {
        PasswordPolicy: {
          MinimumLength: 6,
          RequireLowercase: false,
          RequireUppercase: false,
          RequireNumbers: false,
          RequireSymbols: false,
        },
      },
      MfaConfiguration: 'OFF',
      UserPoolTier: 'ESSENTIALS',
      DeletionProtection: 'ACTIVE',
    });
  });

  it('has a public client for USER_PASSWORD_AUTH and refresh, with token revocation', () => {
    core.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      ExplicitAuthFlows: Match.arrayEquals(['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH']),
      GenerateSecret: false,
      EnableTokenRevocation: true,
      PreventUserExistenceErrors: 'ENABLED',
      // 15-minute access tokens (logout and refresh-cookie reuse end them sooner, services/accounts-sessions.ts)
      AccessTokenValidity: 15,
      TokenValidityUnits: Match.objectLike({ AccessToken: 'minutes' }),
    });
  });

  it('has an SES configuration set for product mail', () => {
    core.resourceCountIs('AWS::SES::ConfigurationSet', 1);
  });
});
