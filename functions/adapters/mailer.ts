import type { MessageTag } from '@aws-sdk/client-sesv2';
import { config } from '../lib/env';

/** SES's client on first use: functions that never mail do not load it. */
const ses = () => import('../lib/clients/sesv2');

/** Asks SES for the account's sending status: proves reachability and credentials, sends nothing. */
export async function checkMailReachable(): Promise<{ sendingEnabled: boolean }> {
  const { sesv2, GetAccountCommand } = await ses();
  const account = await sesv2().send(new GetAccountCommand({}));
  return { sendingEnabled: account.SendingEnabled === true };
}

export interface MailMessage {
  /** one recipient per message in practice: callers send to each recipient separately */
  readonly to: readonly string[];
  readonly subject: string;
  readonly html: string;
  readonly text: string;
  readonly replyTo?: string;
  /** the From of a signed-in sender's transfer mail (their name, their verified domain); default MAIL_FROM */
  readonly from?: string;
  /** SES message tags, e.g. { kind: 'transfer' }; reach the configuration set's event destinations */
  readonly tags?: Readonly<Record<string, string>>;
}

const LINE_BREAK = /[\r\n]/u;
const UTF8 = 'UTF-8';

/** SES tag names and values allow only ASCII letters, digits, '_' and '-', up to 256 characters. */
function tagPart(value: string): string {
  return value.replace(/[^A-Za-z0-9_-]/gu, '_').slice(0, 256);
}

function emailTags(tags: Readonly<Record<string, string>>): MessageTag[] {
  return Object.entries(tags)
    .map(([name, value]) => ({ Name: tagPart(name), Value: tagPart(value) }))
    .filter((tag) => tag.Name.length > 0 && tag.Value.length > 0);
}

/**
 * Sends one message through SES v2 (simple content, HTML and text, UTF-8) from the configured
 * From address, in the configuration set when one is configured.
 */
export async function sendMail(msg: MailMessage): Promise<{ messageId: string }> {
  if (msg.to.length === 0) throw new Error('sendMail needs at least one recipient');
  // Addresses are parsed by SES into headers; a line break there is never legitimate.
  for (const address of [...msg.to, msg.replyTo ?? '', msg.from ?? '']) {
    if (LINE_BREAK.test(address)) throw new Error('Mail address contains a line break');
  }
  const c = config();
  const tags = msg.tags ? emailTags(msg.tags) : [];
  const { sesv2, SendEmailCommand } = await ses();
  const out = await sesv2().send(
    new SendEmailCommand({
      FromEmailAddress: msg.from ?? c.mailFrom,
      Destination: { ToAddresses: [...msg.to] },
      ...(msg.replyTo ? { ReplyToAddresses: [msg.replyTo] } : {}),
      Content: {
        Simple: {
          Subject: { Data: msg.subject.replace(/[\r\n]+/gu, ' ').trim(), Charset: UTF8 },
          Body: {
            Html: { Data: msg.html, Charset: UTF8 },
            Text: { Data: msg.text, Charset: UTF8 },
          },
        },
      },
      ...(c.sesConfigurationSet ? { ConfigurationSetName: c.sesConfigurationSet } : {}),
      ...(tags.length > 0 ? { EmailTags: tags } : {}),
    }),
  );
  if (!out.MessageId) throw new Error('SES accepted the message but returned no MessageId');
  return { messageId: out.MessageId };
}
