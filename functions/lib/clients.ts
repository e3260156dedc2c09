import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { LambdaClient } from '@aws-sdk/client-lambda';
import { config } from './env';

/**
 * SDK clients, one per process (conventions §5). Endpoints come from config: unset in AWS,
 * loopback emulators locally. Created on first use so importing a handler needs no env.
 */
let ddbDoc: DynamoDBDocumentClient | undefined;
let ses: SESv2Client | undefined;
let cognito: CognitoIdentityProviderClient | undefined;
const s3ByRegion = new Map<string, S3Client>();

export function dynamo(): DynamoDBDocumentClient {
  if (!ddbDoc) {
    const c = config();
    const base = new DynamoDBClient({ region: c.awsRegion, endpoint: c.endpoints.dynamodb, maxAttempts: 3 });
    ddbDoc = DynamoDBDocumentClient.from(base, {
      marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
    });
  }
  return ddbDoc;
}

/** Buckets live in several AWS regions; one client per AWS region. */
export function s3(awsRegion: string): S3Client {
  let client = s3ByRegion.get(awsRegion);
  if (!client) {
    const c = config();
    client = new S3Client({
      region: awsRegion,
      endpoint: c.endpoints.s3,
      forcePathStyle: Boolean(c.endpoints.s3),
      // s3rver stores streamed bodies with the SDK's default checksum framing and presigned
      // PUTs would carry an empty-body CRC32 (docs/architecture.md §5); only checksum when S3 requires it.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    s3ByRegion.set(awsRegion, client);
  }
  return client;
}

export function sesv2(): SESv2Client {
  if (!ses) {
    const c = config();
    ses = new SESv2Client({ region: c.awsRegion, endpoint: c.endpoints.ses, maxAttempts: 3 });
  }
  return ses;
}

export function cognitoIdp(): CognitoIdentityProviderClient {
  if (!cognito) {
    const c = config();
    cognito = new CognitoIdentityProviderClient({ region: c.awsRegion, endpoint: c.endpoints.cognito });
  }
  return cognito;
}

let lambdaClient: LambdaClient | undefined;

/** For async job starts; locally the endpoint is the gateway's Lambda Invoke emulation. */
export function lambda(): LambdaClient {
  if (!lambdaClient) {
    const c = config();
    lambdaClient = new LambdaClient({ region: c.awsRegion, endpoint: c.endpoints.lambda, maxAttempts: 3 });
  }
  return lambdaClient;
}
