/**
 * Names of the environment variables the functions read. Shared by `functions/lib/env.ts`
 * (reads them once), `lib/` (sets them on every Lambda) and `scripts/` (sets them locally).
 */
export const ENV = {
  /** DynamoDB table name */
  tableName: 'TABLE_NAME',
  /** JSON: { [regionId]: { bucket, anonBucket, awsRegion } } for every storage region served */
  regionBuckets: 'REGION_BUCKETS',
  /** default storage region id (spec: hongkong) */
  defaultRegion: 'DEFAULT_STORAGE_REGION',
  userPoolId: 'USER_POOL_ID',
  userPoolClientId: 'USER_POOL_CLIENT_ID',
  /** From address of product mail, e.g. "SendBridge <no-reply@example.com>" */
  mailFrom: 'MAIL_FROM',
  /** SES configuration set (unset locally) */
  sesConfigurationSet: 'SES_CONFIGURATION_SET',
  /** the app's public origin, used in links in mail */
  appOrigin: 'APP_ORIGIN',
  /** loopback endpoints of the local emulators; unset in AWS */
  dynamodbEndpoint: 'DYNAMODB_ENDPOINT',
  s3Endpoint: 'S3_ENDPOINT',
  cognitoEndpoint: 'COGNITO_ENDPOINT',
  sesEndpoint: 'SES_ENDPOINT',
  /** JSON: { [jobName]: lambdaFunctionName } of the jobs a handler may start (async invoke) */
  jobFunctions: 'JOB_FUNCTIONS',
  /** loopback Lambda Invoke endpoint (the local gateway); unset in AWS */
  lambdaEndpoint: 'LAMBDA_ENDPOINT',
  /** optional path to a GeoIP database for download countries */
  geoipDatabase: 'GEOIP_DATABASE',
  logLevel: 'LOG_LEVEL',
  /**
   * The secret CloudFront adds to every `/api/*` request (`x-origin-verify`): viewer headers
   * such as CloudFront-Viewer-Address are trusted only beside it. Unset locally, where the
   * gateway listens on loopback behind the app server alone.
   */
  originVerify: 'ORIGIN_VERIFY',
  /** the payments provider, `simulated` (default) or `stripe` (functions/adapters/payments/) */
  payments: 'PAYMENTS',
  /** simulator: where it POSTs its events (default: APP_ORIGIN + /api/stripe/webhook) */
  paymentsWebhookUrl: 'PAYMENTS_WEBHOOK_URL',
  /** simulator: the secret it signs its events with and the webhook verifies them with (local only; AWS reads the Stripe secret) */
  paymentsWebhookSecret: 'PAYMENTS_WEBHOOK_SECRET',
  /** JSON { "<role>/<month|year>": "price_..." }: Stripe's price ids (CDK context `stripePrices`) */
  stripePrices: 'STRIPE_PRICES',
  /** name or ARN of the Secrets Manager secret holding { secretKey, publishableKey, webhookSecret }; the keys never travel in env */
  stripeSecretId: 'STRIPE_SECRET_ID',
  /** loopback Secrets Manager endpoint (tests); unset in AWS */
  secretsManagerEndpoint: 'SECRETS_MANAGER_ENDPOINT',
  // ---- custom domains and sender email domains (functions/services/domains.ts) ----
  /** `host:port` of the DNS server domain checks query (the local DNS server); unset: the system resolver */
  dnsResolver: 'DNS_RESOLVER',
  /** the host name users point their custom domain's CNAME at (the connection group's routing endpoint in AWS) */
  customDomainTarget: 'CUSTOM_DOMAIN_TARGET',
  /** origin of a verified custom domain, `{host}` replaced (default `https://{host}`; locally `http://{host}:<web port>`) */
  customDomainOrigin: 'CUSTOM_DOMAIN_ORIGIN',
  /** the multi-tenant CloudFront distribution tenants are created in (the tenant job, AWS only) */
  tenantDistributionId: 'TENANT_DISTRIBUTION_ID',
  /** the CloudFront connection group of those tenants (AWS only) */
  connectionGroupId: 'CONNECTION_GROUP_ID',
  // ---- product events and webhooks (functions/services/events.ts) ----
  /** the deployment's EventBridge bus every product event goes on (AWS only) */
  eventBusName: 'EVENT_BUS_NAME',
  /** the SQS queue webhook deliveries run from (AWS only; locally the delivery job is invoked) */
  webhookQueueUrl: 'WEBHOOK_QUEUE_URL',
  // ---- malware scanning and abuse reports ----
  /** `guardduty` in AWS (GuardDuty Malware Protection scans each object; its events reach the malware-scan job); unset or `local`: the local scanner */
  malwareScanner: 'MALWARE_SCANNER',
  /** the operator address abuse reports are mailed to (unset: recorded only) */
  abuseReportTo: 'ABUSE_REPORT_TO',
  // ---- signed delivery receipts (functions/services/receipts.ts) ----
  /** name or ARN of the Secrets Manager secret holding the receipt signing keys (AWS) */
  receiptKeysSecretId: 'RECEIPT_KEYS_SECRET_ID',
  /** the file holding the receipt signing keys (local stacks: `<data dir>/receipts/keys.json`) */
  receiptKeysFile: 'RECEIPT_KEYS_FILE',
} as const;

export type EnvName = (typeof ENV)[keyof typeof ENV];
