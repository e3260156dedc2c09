/**
 * Runs s3rver in its own process: it must run under `node --openssl-legacy-provider` (a
 * truncated ListObjectsV2 answers 500 otherwise), which the parent sets for this child only.
 * Config arrives as JSON in S3RVER_CONFIG; prints "S3RVER READY <port>" when listening. Each
 * GetObject served is reported as CloudTrail reports it in AWS (./s3rver-cloudtrail.ts).
 */
import S3rver from 's3rver';
import { applyS3ConditionalReads } from './s3rver-conditional-reads';
import { applyS3MultipartRules } from './s3rver-s3-rules';
import { applyCloudTrailEvents } from './s3rver-cloudtrail';

interface ChildConfig {
  port: number;
  directory: string;
  buckets: string[];
  corsXml: string;
}

if (!applyS3MultipartRules()) {
  console.error("s3rver: its filesystem store changed shape; S3's multipart rules are not enforced");
  process.exit(1);
}
if (!applyS3ConditionalReads()) {
  console.error("s3rver: its object controller changed shape; S3's conditional reads are not enforced");
  process.exit(1);
}

const cfg = JSON.parse(process.env.S3RVER_CONFIG ?? '{}') as ChildConfig;

const server = new S3rver({
  address: '127.0.0.1',
  port: cfg.port,
  directory: cfg.directory,
  silent: true,
  configureBuckets: cfg.buckets.map((name) => ({ name, configs: [cfg.corsXml] })),
});

server.run().then(
  () => {
    // GetObject's CloudTrail data events, to the targets registered per bucket (s3rver-cloudtrail.ts)
    applyCloudTrailEvents(server.httpServer, `${cfg.directory}.cloudtrail-targets.json`, (l) => console.error(l));
    console.log(`S3RVER READY ${cfg.port}`);
  },
  (err: unknown) => {
    console.error('s3rver failed to start:', err);
    process.exit(1);
  },
);

const stop = () => server.close().finally(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
