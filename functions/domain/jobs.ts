/** Names of jobs other functions start (functions/routes.ts `jobs`), where both sides need them. */

/** Completes large multipart files in the background; also mails an abandoned live transfer's withdrawal. */
export const COMPLETE_JOB = 'complete-upload';
