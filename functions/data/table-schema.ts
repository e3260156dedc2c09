/**
 * The single table's key schema, shared by CDK (`lib/`) and the local stack (`scripts/`),
 * so both create exactly the same table. Access patterns: docs/data-model.md.
 */
export const TABLE_KEYS = { partitionKey: 'pk', sortKey: 'sk' } as const;

export const TABLE_GSIS = [
  { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  { indexName: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  { indexName: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk' },
] as const;

/** Epoch seconds; DynamoDB deletes the item some time after. Reads treat a past ttl as absent. */
export const TTL_ATTRIBUTE = 'ttl';
