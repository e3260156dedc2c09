import type * as z from 'zod';
import { HttpError } from '../lib/errors';

/**
 * A rejected send: 400 with the first problem's stable code (validation.ts `params.code`) and
 * message, and every problem in details, so the form can mark each field.
 */
export function draftError(error: z.ZodError): HttpError {
  const issues = error.issues.map((i) => ({
    path: i.path.map(String).join('.'),
    message: i.message,
    code: (i as { params?: { code?: string } }).params?.code ?? 'invalid_request',
  }));
  const first = issues[0];
  return new HttpError(400, first?.code ?? 'invalid_request', first?.message ?? 'Invalid transfer', { issues });
}
