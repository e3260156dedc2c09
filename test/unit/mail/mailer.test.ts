import { afterAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { SESv2Client, SendEmailCommand } from '@aws-sdk/client-sesv2';
import { UNIT_ENV } from '../../helpers/events';

const ses = mockClient(SESv2Client);
const saved = { ...process.env };

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
  ses.reset();
  ses.on(SendEmailCommand).resolves({ MessageId: 'msg-0001' });
});

afterAll(() => {
  process.env = saved;
});

describe('sendMail', () => {
  it('sends simple UTF-8 content from the configured address in the configuration set', async () => {
    const { sendMail } = await loadMailer({ SES_CONFIGURATION_SET: 'sendbridge-mail' });
    const result = await sendMail({ ...MESSAGE, replyTo: 'alice@example.com', tags: { kind: 'transfer' } });

    expect(result).toEqual({ messageId: 'msg-0001' });
    const calls = ses.commandCalls(SendEmailCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.args[0].input).toEqual({
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
    const input = ses.commandCalls(SendEmailCommand)[0]?.args[0].input;
    expect(input).not.toHaveProperty('ConfigurationSetName');
    expect(input).not.toHaveProperty('ReplyToAddresses');
    expect(input).not.toHaveProperty('EmailTags');
    expect(input?.FromEmailAddress).toBe('SendBridge <no-reply@example.com>');
  });

  it('keeps the subject on one line', async () => {
    const { sendMail } = await loadMailer({});
    await sendMail({ ...MESSAGE, subject: 'Hello\r\nBcc: victim@example.com' });
    expect(ses.commandCalls(SendEmailCommand)[0]?.args[0].input.Content?.Simple?.Subject?.Data).toBe('Hello Bcc: victim@example.com');
  });

  it('turns tag characters SES refuses into underscores and drops empty tags', async () => {
    const { sendMail } = await loadMailer({});
    await sendMail({ ...MESSAGE, tags: { kind: 'download notice', 'transfer.id': 'Ab3dE5g', empty: '' } });
    expect(ses.commandCalls(SendEmailCommand)[0]?.args[0].input.EmailTags).toEqual([
      { Name: 'kind', Value: 'download_notice' },
      { Name: 'transfer_id', Value: 'Ab3dE5g' },
    ]);
  });

  it('refuses no recipients and addresses with line breaks without calling SES', async () => {
    const { sendMail } = await loadMailer({});
    await expect(sendMail({ ...MESSAGE, to: [] })).rejects.toThrow(/recipient/u);
    await expect(sendMail({ ...MESSAGE, to: ['bob@example.com\r\nBcc: x@example.com'] })).rejects.toThrow(/line break/u);
    await expect(sendMail({ ...MESSAGE, replyTo: 'a@example.com\nx' })).rejects.toThrow(/line break/u);
    expect(ses.commandCalls(SendEmailCommand)).toHaveLength(0);
  });

  it('passes SES failures on and fails when SES returns no message id', async () => {
    const { sendMail } = await loadMailer({});
    ses.on(SendEmailCommand).rejectsOnce(Object.assign(new Error('Email address is not verified.'), { name: 'MessageRejected' }));
    await expect(sendMail(MESSAGE)).rejects.toThrow('Email address is not verified.');
    ses.on(SendEmailCommand).resolves({});
    await expect(sendMail(MESSAGE)).rejects.toThrow(/MessageId/u);
  });
});
