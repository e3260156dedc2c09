import { fileURLToPath } from 'node:url';
import { startChild, type Child } from './child';

/** What GetAccount answers (AWS_SES_ACCOUNT of aws-ses-v2-local); /health reads it. */
export const SES_ACCOUNT = JSON.stringify({
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

const childScript = fileURLToPath(new URL('./ses-child.ts', import.meta.url));

export function startSes(opts: { port: number }): Promise<Child> {
  return startChild('aws-ses-v2-local', process.execPath, ['--import', 'tsx', childScript], {
    env: { ...process.env, SES_PORT: String(opts.port) },
    ready: /SES READY/,
    port: opts.port,
  });
}
