import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UNIT_ENV } from '../../helpers/events';
import { jsonResponse, stubHttp, type SentRequest } from '../../helpers/http-stub';

/** SES v2 answers at the fetch boundary; the assertions read the SendEmail request as SES gets it. */
const saved = { ...process.env };
let calls: SentRequest[];
let restore: () => void;
let answer: () => Response;
const sends = () =>
  calls.filter(
    (c) => c.method === 'POST' && c.url.href === 'https://email.us-east-1.amazonaws.com/v2/email/outbound-emails',
  );
const sent = (i = 0) => sends()[i]!.json<Record<string, any>>();

/** config() caches per module instance: a fresh import reads the env of this test. */
async function loadMailer(env: Record<string, string | undefined>) {
  vi.resetModules();
  process.env = { ...saved, ...UNIT_ENV, ...env };
  return import('../../../functions/adapters/mailer');
}

const MESSAGE = {
  to: ['bob@example.com'],
  subject: 'Alice sent you 3 files via SendBridge',
  html: '<!DOCTYPE html><html lang="en"><body>Hi</body></html>',
  text: 'Hi',
};

beforeEach(() => {
  answer = () => jsonResponse({ MessageId: 'msg-0001' }, 200, { 'content-type': 'application/json' });
  ({ calls, restore } = stubHttp(() => answer()));
});

afterEach(() => restore());

afterAll(() => {
  process.env = saved;
});

describe('sendMail', () => {
  it('sends simple UTF-8 content from the configured address in the configuration set', async () => {
    const { sendMail } = await loadMailer({ SES_CONFIGURATION_SET: 'sendbridge-mail' });
    const result = await sendMail({ ...MESSAGE, replyTo: 'alice@example.com', tags: { kind: 'transfer' } });

    expect(result).toEqual({ messageId: 'msg-0001' });
    expect(sends()).toHaveLength(1);
    expect(sends()[0]!.headers.get('content-type')).toBe('application/json');
    expect(sends()[0]!.headers.get('authorization')).toMatch(
      /^AWS4-HMAC-SHA256 Credential=unit\/\d{8}\/us-east-1\/ses\/aws4_request, /u,
    );
    expect(sent()).toEqual({
      FromEmailAddress: 'SendBridge <no-reply@example.com>',
      Destination: { ToAddresses: ['bob@example.com'] },
      ReplyToAddresses: ['alice@example.com'],
      Content: {
        Simple: {
          Subject: { Data: MESSAGE.subject, Charset: 'UTF-8' },
          Body: {
            Html: { Data: MESSAGE.html, Charset: 'UTF-8' },
            Text: { Data: 'Hi', Charset: 'UTF-8' },
          },
        },
      },
      ConfigurationSetName: 'sendbridge-mail',
      EmailTags: [{ Name: 'kind', Value: 'transfer' }],
    });
  });

  it('names no configuration set, reply-to or tags when none are given', async () => {
    const { sendMail } = await loadMailer({ SES_CONFIGURATION_SET: undefined });
    await sendMail(MESSAGE);
    const input = sent();
    expect(input).not.toHaveProperty('ConfigurationSetName');
    expect(input).not.toHaveProperty('ReplyToAddresses');
    expect(input).not.toHaveProperty('EmailTags');
    expect(input?.FromEmailAddress).toBe('SendBridge <no-reply@example.com>');
  });

  it('keeps the subject on one line', async () => {
    const { sendMail } = await loadMailer({});
    await sendMail({ ...MESSAGE, subject: 'Hello\r\nBcc: victim@example.com' });
    expect(sent().Content.Simple.Subject.Data).toBe('Hello Bcc: victim@example.com');
  });

  it('turns tag characters SES refuses into underscores and drops empty tags', async () => {
    const { sendMail } = await loadMailer({});
    await sendMail({ ...MESSAGE, tags: { kind: 'download notice', 'transfer.id': 'Ab3dE5g', empty: '' } });
    expect(sent().EmailTags).toEqual([
      { Name: 'kind', Value: 'download_notice' },
      { Name: 'transfer_id', Value: 'Ab3dE5g' },
    ]);
  });

  it('refuses no recipients and addresses with line breaks without calling SES', async () => {
    const { sendMail } = await loadMailer({});
    await expect(sendMail({ ...MESSAGE, to: [] })).rejects.toThrow(/recipient/u);
    await expect(sendMail({ ...MESSAGE, to: ['bob@example.com\r\nBcc: x@example.com'] })).rejects.toThrow(
      /line break/u,
    );
    await expect(sendMail({ ...MESSAGE, replyTo: 'a@example.com\nx' })).rejects.toThrow(/line break/u);
    expect(calls).toHaveLength(0);
  });

  it('passes SES failures on and fails when SES returns no message id', async () => {
    const { sendMail } = await loadMailer({});
    // SES v2 names the error in x-amzn-ErrorType; a 400 is not retried.
    answer = () =>
      new Response(JSON.stringify({ message: 'Email address is not verified.' }), {
        status: 400,
        headers: {
          'content-type': 'application/json',
          'x-amzn-errortype': 'MessageRejected:http://internal.amazon.com/coral/com.amazonaws.sesv2/',
        },
      });
    await expect(sendMail(MESSAGE)).rejects.toMatchObject({
      name: 'MessageRejected',
      message: 'Email address is not verified.',
      $metadata: { httpStatusCode: 400 },
    });
    expect(sends()).toHaveLength(1);
    answer = () => jsonResponse({});
    await expect(sendMail(MESSAGE)).rejects.toThrow(/MessageId/u);
  });
});
