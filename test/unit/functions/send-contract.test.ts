/**
 * One contract for the send: every create route parses the same static body schema (the route
 * table's schemas feed the local gateway, the fuzzing and the OpenAPI document), and the app's
 * routes answer a body it refuses with the first problem's code, as a refused send.
 */
import { describe, expect, it } from 'vitest';
import { handler as guestCreate } from '../../../functions/http/transfers/create-guest';
import { handler as userCreate } from '../../../functions/http/transfers/create';
import { handler as apiCreate } from '../../../functions/http/transfers/v1-create';
import { V1_OPERATIONS } from '../../../functions/domain/public-api-docs';
import { createTransferRequestSchema } from '../../../functions/domain/transfer-api';
import { v1CreateTransferSchema } from '../../../functions/domain/public-api';
import { problemsOf, sendBodySchema } from '../../../functions/domain/validation';
import { sendBodyInvalid } from '../../../functions/services/draft-error';
import { ValidationError } from '../../../functions/lib/errors';

describe('the send body', () => {
  it('is one schema object on the guest, signed-in and API create routes and in the OpenAPI document', () => {
    expect(createTransferRequestSchema).toBe(sendBodySchema);
    expect(v1CreateTransferSchema).toBe(sendBodySchema);
    for (const route of [guestCreate, userCreate, apiCreate]) expect(route.schemas.body).toBe(sendBodySchema);
    expect(V1_OPERATIONS['POST /v1/transfers']?.body).toBe(sendBodySchema);
  });

  it("refused in the app: the first problem's code at the top; a body that is no object stays invalid_request", () => {
    const parsed = sendBodySchema.safeParse({ emailTo: [{ email: 'nope' }], message: 'x'.repeat(300) });
    expect(parsed.success).toBe(false);
    const problems = problemsOf(parsed.error!);
    expect(problems.map((p) => p.code)).toEqual(['message_too_long', 'invalid_email']);
    const err = sendBodyInvalid(problems, 'body');
    expect(err).toBeInstanceOf(ValidationError);
    const top = { statusCode: 400, code: 'message_too_long', field: 'message', details: { issues: problems } };
    expect(err).toMatchObject(top);
    expect(sendBodyInvalid([{ code: 'invalid_type', field: '', message: 'expected object' }], 'body')).toBeUndefined();
  });
});

describe('the mail language', () => {
  it('is optional, and one that is no language tag is left out instead of refusing the send', () => {
    expect(sendBodySchema.parse({ lang: 'fr' }).lang).toBe('fr');
    expect(sendBodySchema.parse({ lang: 42 }).lang).toBeUndefined();
    expect(sendBodySchema.parse({ lang: 'x'.repeat(17) }).lang).toBeUndefined();
  });
});
