/** SES v2 (REST/JSON): SendEmail and GetAccount, the SDK's types. */
import type { GetAccountCommandOutput, SendEmailCommandInput, SendEmailCommandOutput } from '@aws-sdk/client-sesv2';
import { config } from '../env';
import { jsonReplacer, parseJson, parseJsonError, send, serviceEndpoint } from './core';

type Out<T> = Omit<T, '$metadata'>;

export function createSesV2(opts: { region: string; endpoint?: string | undefined }) {
  const { region } = opts;
  const endpoint = serviceEndpoint('email', region, opts.endpoint);
  const call = <T>(method: 'GET' | 'POST', path: string, input?: unknown) =>
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
