/** SES v2 (REST/JSON): SendEmail and GetAccount, and issue 15's email identities; the SDK's types. */
import type {
  CreateEmailIdentityCommandInput,
  CreateEmailIdentityCommandOutput,
  GetAccountCommandOutput,
  GetEmailIdentityCommandOutput,
  SendEmailCommandInput,
  SendEmailCommandOutput,
} from '@aws-sdk/client-sesv2';
import { config } from '../env';
import { jsonReplacer, parseJson, parseJsonError, send, serviceEndpoint } from './core';

type Out<T> = Omit<T, '$metadata'>;

export function createSesV2(opts: { region: string; endpoint?: string | undefined }) {
  const { region } = opts;
  const endpoint = serviceEndpoint('email', region, opts.endpoint);
  const call = <T>(method: 'GET' | 'POST' | 'DELETE', path: string, input?: unknown) =>
    send<T>(
      {
        service: 'ses',
        region,
        method,
        url: `${endpoint}${path}`,
        ...(input !== undefined ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(input, jsonReplacer) } : {}),
      },
      { parseError: parseJsonError, read: async (res) => parseJson<T>(await res.text()) },
    );
  return {
    sendEmail: (input: SendEmailCommandInput) => call<Out<SendEmailCommandOutput>>('POST', '/v2/email/outbound-emails', input),
    /** Dates stay epoch seconds (numbers) here: nothing reads them. */
    getAccount: () => call<Out<GetAccountCommandOutput>>('GET', '/v2/email/account'),
    // issue 15: a user's sender domain (Easy DKIM); dates are left as SES sends them (unread)
    createEmailIdentity: (input: CreateEmailIdentityCommandInput) => call<Out<CreateEmailIdentityCommandOutput>>('POST', '/v2/email/identities', input),
    getEmailIdentity: (identity: string) => call<Out<GetEmailIdentityCommandOutput>>('GET', `/v2/email/identities/${encodeURIComponent(identity)}`),
    deleteEmailIdentity: (identity: string) => call<Record<string, never>>('DELETE', `/v2/email/identities/${encodeURIComponent(identity)}`),
  };
}

export type SesV2 = ReturnType<typeof createSesV2>;

let client: SesV2 | undefined;

export function sesv2(): SesV2 {
  if (!client) {
    const c = config();
    client = createSesV2({ region: c.awsRegion, endpoint: c.endpoints.ses });
  }
  return client;
}
