/**
 * Runs aws-ses-v2-local in its own process (its web page is the local inbox; tests read
 * mail back from GET /store). AWS_SES_ACCOUNT makes GetAccount answer, which /health uses.
 */
import * as sesModule from 'aws-ses-v2-local';
import { SES_ACCOUNT } from './ses';

// CommonJS package: under ESM its default export may arrive wrapped once more.
const sesLocal = (sesModule.default as unknown as { default?: typeof sesModule.default }).default ?? sesModule.default;

const port = Number(process.env.SES_PORT);
process.env.AWS_SES_ACCOUNT ??= SES_ACCOUNT;

sesLocal({ host: '127.0.0.1', port }).then(
  () => console.log(`SES READY ${port}`),
  (err: unknown) => {
    console.error('aws-ses-v2-local failed to start:', err);
    process.exit(1);
  },
);
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
