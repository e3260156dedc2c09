import { S3Client } from '@aws-sdk/client-s3';
import { config } from './env';

/** The S3 clients (one per AWS region: buckets live in several); see clients.ts. */
const s3ByRegion = new Map<string, S3Client>();

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
