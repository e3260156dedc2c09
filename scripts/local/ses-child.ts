/**
 * Runs aws-ses-v2-local in its own process (its web page is the local inbox; tests read
 * mail back from GET /store). AWS_SES_ACCOUNT makes GetAccount answer, which /health uses.
 */
import * as sesModule from 'aws-ses-v2-local';

// CommonJS package: under ESM its default export may arrive wrapped once more.
const sesLocal = ((sesModule.default as unknown as { default?: typeof sesModule.default }).default ?? sesModule.default);

const port = Number(process.env.SES_PORT);
process.env.AWS_SES_ACCOUNT ??= JSON.stringify({
  DedicatedIpAutoWarmupEnabled: false,
  Details: {
    AdditionalContactEmailAddresses: [],
    ContactLanguage: 'EN',
    MailType: 'TRANSACTIONAL',
    ReviewDetails: { CaseId: 'local', Status: 'GRANTED' },
    UseCaseDescription: 'SendBridge local development inbox',
    WebsiteURL: 'http://127.0.0.1',
  },
  EnforcementStatus: 'HEALTHY',
  ProductionAccessEnabled: true,
  SendingEnabled: true,
  SendQuota: { Max24HourSend: 50000, MaxSendRate: 14, SentLast24Hours: 0 },
  SuppressionAttributes: { SuppressedReasons: [] },
});

sesLocal({ host: '127.0.0.1', port }).then(
  () => console.log(`SES READY ${port}`),
  (err: unknown) => {
    console.error('aws-ses-v2-local failed to start:', err);
    process.exit(1);
  },
);
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
