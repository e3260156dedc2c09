/** The reasons of an abuse report (no zod: the download page's report form reads them). */
export const ABUSE_REASONS = ['malware', 'phishing', 'copyright', 'illegal', 'harassment', 'spam', 'other'] as const;
export type AbuseReason = (typeof ABUSE_REASONS)[number];
export const ABUSE_DETAILS_MAX = 2000;
