/**
 * SDK clients, one per process (conventions §5). Endpoints come from config: unset in AWS,
 * loopback emulators locally. Created on first use so importing a handler needs no env.
 * One module per service: a grouped function loads a route's modules on its first request,
 * and a module's imports are loaded with it, so a route that only reads the table never loads
 * the S3, SES, Cognito or Lambda clients.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from './env';

let ddbDoc: DynamoDBDocumentClient | undefined;

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
