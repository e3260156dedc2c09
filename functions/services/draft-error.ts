import type * as z from 'zod/mini';
import type { AddFilesRefusal, SendRefusal } from '../domain/send-rules';
import { problemOfSendIssue, problemsOf, type Problem } from '../domain/validation';
import { badRequest, forbidden, problemsError, type HttpError } from '../lib/errors';

/**
 * A rejected send: 400 with the first problem's stable code, field and English message, and
 * every problem in details.issues as `{ code, field, message }`, so the form can mark each field.
 */
export function draftError(error: z.core.$ZodError): HttpError {
  return problemsError(problemsOf(error), 'Invalid transfer');
}

/** A send the rules refused (domain/send-rules.ts checkSend), as its HTTP answer. */
export function sendRefusalError(refusal: SendRefusal): HttpError {
  switch (refusal.code) {
    case 'invalid_send':
      return problemsError(refusal.issues.map(problemOfSendIssue), 'Invalid transfer');
    case 'share_not_team':
      return badRequest('share_not_team', 'You can share transfers only with members of your team.');
    case 'sender_not_verified':
      return forbidden('sender_not_verified', 'Verify your email address before sending.');
  }
}

/** Files the rules refused to add to a sent transfer (domain/send-rules.ts checkAddFiles), as HTTP. */
export function addFilesRefusalError(refusal: AddFilesRefusal): HttpError {
  switch (refusal.code) {
    case 'file_not_allowed':
      return problemsError([problemOfSendIssue(refusal.issue)]);
    case 'no_new_files':
      return badRequest('no_new_files', 'These files are already in the transfer.');
    case 'too_many_files':
      return badRequest('too_many_files', 'Too many files for your plan');
    case 'transfer_too_large':
      return badRequest('transfer_too_large', 'These files are larger than your plan allows');
  }
}

/**
 * The app's create routes answer a body the send schema refused like a refused send (the
 * first problem's code, which the form reads); a body that is no JSON object at all stays
 * 400 invalid_request.
 */
export function sendBodyInvalid(problems: readonly Problem[], where: string): HttpError | undefined {
  const first = problems[0];
  if (where !== 'body' || first === undefined || first.field === '') return undefined;
  return problemsError(problems, 'Invalid transfer');
}
