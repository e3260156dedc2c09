/**
 * The table's client: the AWS SDK v3's DynamoDBDocument (lib-dynamodb) over one DynamoDBClient
 * per process, so data modules pass and get plain JS values. Created on first use (conventions
 * §5); the endpoint comes from configuration (DynamoDB Local locally, unset in AWS).
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocument } from '@aws-sdk/lib-dynamodb';
import { config } from '../env';
import { REQUEST_HANDLER } from './timeouts';

export type {
  BatchGetCommandInput,
  BatchWriteCommandInput,
  DeleteCommandInput,
  GetCommandInput,
  PutCommandInput,
  QueryCommandInput,
  TransactWriteCommandInput,
  UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';

/** undefined members are dropped (optional fields of records), class instances are refused. */
const TRANSLATE = {
  marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
  unmarshallOptions: { wrapNumbers: false },
} as const;

let client: DynamoDBDocument | undefined;

export function ddb(): DynamoDBDocument {
  if (!client) {
    const c = config();
    client = DynamoDBDocument.from(
      new DynamoDBClient({
        region: c.awsRegion,
        requestHandler: REQUEST_HANDLER,
        ...(c.endpoints.dynamodb ? { endpoint: c.endpoints.dynamodb } : {}),
      }),
      TRANSLATE,
    );
  }
  return client;
}
