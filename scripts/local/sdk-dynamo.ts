/**
 * A document client of its own on the functions' table, for tests, benches and scripts only:
 * they seed and read back items apart from the functions' client (functions/lib/clients/dynamodb.ts).
 * Endpoint and region from the functions' config.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../../functions/lib/env';

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
