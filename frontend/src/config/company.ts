import { env } from '@/config/env';

/** Company facts shown on About, Support and the footer. */
export const company = {
  name: 'SendBridge',
  legalName: 'SendBridge Limited',
  addressLines: ['Unit 1206, 12/F, Harbour Road Centre', '28 Harbour Road, Wan Chai', 'Hong Kong'],
  supportEmail: env.supportEmail,
  partnersEmail: env.supportEmail.replace(/^[^@]+/, 'partners'),
  /** business days, Hong Kong time */
  supportHours: '09:00-18:00 HKT',
} as const;
