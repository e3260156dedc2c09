import type * as z from 'zod/mini';
import { problemsOf } from '../domain/validation';
import { problemsError, type HttpError } from '../lib/errors';

/**
 * A rejected send: 400 with the first problem's stable code, field and English message, and
 * every problem in details.issues as `{ code, field, message }`, so the form can mark each field.
 */
export function draftError(error: z.core.$ZodError): HttpError {
  return problemsError(problemsOf(error), 'Invalid transfer');
}
