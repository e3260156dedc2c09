/** Lambda Invoke (REST/JSON), asynchronous only: what starting a job needs. */
import { config } from '../env';
import { parseJsonError, send, serviceEndpoint } from './core';

export function createLambda(opts: { region: string; endpoint?: string | undefined }) {
  const { region } = opts;
  const endpoint = serviceEndpoint('lambda', region, opts.endpoint);
  return {
    /** InvocationType Event: Lambda queues the event and answers 202 at once. */
    async invokeEvent(functionName: string, payload: string): Promise<{ StatusCode: number }> {
      return send(
        {
          service: 'lambda',
          region,
          method: 'POST',
          url: `${endpoint}/2015-03-31/functions/${encodeURIComponent(functionName)}/invocations`,
          headers: { 'content-type': 'application/json', 'x-amz-invocation-type': 'Event' },
          body: payload,
        },
        {
          parseError: parseJsonError,
          read: async (res) => {
            await res.arrayBuffer();
            return { StatusCode: res.status };
          },
        },
      );
    },
  };
}

export type Lambda = ReturnType<typeof createLambda>;

let client: Lambda | undefined;

export function lambda(): Lambda {
  if (!client) {
    const c = config();
    client = createLambda({ region: c.awsRegion, endpoint: c.endpoints.lambda });
  }
  return client;
}
