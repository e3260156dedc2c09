/**
 * A recording HTTP boundary for the real `stripe` SDK: its fetch HTTP client
 * (`Stripe.createFetchHttpClient(fetch)`) runs over this fetch, which records each request's
 * method, path, query and form body and answers with the canned Stripe JSON the test gives
 * for that request. Nothing of the SDK is replaced: the tests assert what it puts on the wire.
 */
export interface RecordedStripeRequest {
  readonly method: string;
  /** e.g. /v1/checkout/sessions */
  readonly path: string;
  /** query parameters, as sent (`expand[0]` keys kept) */
  readonly query: Record<string, string>;
  /** the form body, decoded (`line_items[0][price]` keys kept) */
  readonly form: Record<string, string>;
  readonly headers: Headers;
}

export type StripeAnswer =
  | { status?: number; body: unknown }
  | ((req: RecordedStripeRequest) => { status?: number; body: unknown });

export interface StripeRecorder {
  readonly requests: RecordedStripeRequest[];
  readonly fetch: typeof fetch;
  /** answer `METHOD /v1/path` (exact path; the query is ignored) */
  on(key: string, answer: StripeAnswer): void;
  /** the requests sent to Stripe, as `METHOD /path` */
  lines(): string[];
}

function decode(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of params) out[k] = v;
  return out;
}

export function stripeRecorder(): StripeRecorder {
  const requests: RecordedStripeRequest[] = [];
  const answers = new Map<string, StripeAnswer>();
  const fake = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const body = typeof init.body === 'string' ? init.body : '';
    const req: RecordedStripeRequest = {
      method: (init.method ?? 'GET').toUpperCase(),
      path: url.pathname,
      query: decode(url.searchParams),
      form: decode(new URLSearchParams(body)),
      headers: new Headers(init.headers),
    };
    requests.push(req);
    const key = `${req.method} ${req.path}`;
    const answer = answers.get(key);
    if (!answer) {
      return new Response(
        JSON.stringify({
          error: { type: 'invalid_request_error', code: 'resource_missing', message: `Unrecorded request: ${key}` },
        }),
        {
          status: 404,
          headers: { 'content-type': 'application/json', 'request-id': 'req_test' },
        },
      );
    }
    const { status = 200, body: out } = typeof answer === 'function' ? answer(req) : answer;
    return new Response(JSON.stringify(out), {
      status,
      headers: { 'content-type': 'application/json', 'request-id': 'req_test' },
    });
  };
  return {
    requests,
    fetch: fake as typeof fetch,
    on: (key, answer) => void answers.set(key, answer),
    lines: () => requests.map((r) => `${r.method} ${r.path}`),
  };
}

/** A Stripe list object. */
export const list = <T>(data: T[], url = '/v1/x') => ({ object: 'list', data, has_more: false, url });

export const price = (
  id: string,
  role: string,
  interval: 'month' | 'year',
  amount: number,
  nickname: string | null = null,
) => ({
  id,
  object: 'price',
  active: true,
  currency: 'usd',
  nickname,
  unit_amount: amount,
  recurring: { interval, interval_count: 1 },
  metadata: { role },
  product: `prod_${role}`,
  lookup_key: `sendbridge_${role}_${interval}`,
  type: 'recurring',
});

export const subscription = (over: Record<string, unknown> = {}) => ({
  id: 'sub_1',
  object: 'subscription',
  customer: 'cus_1',
  status: 'active',
  created: 1_700_000_000,
  start_date: 1_700_000_000,
  trial_end: null,
  cancel_at_period_end: false,
  canceled_at: null,
  metadata: { userId: 'user-1' },
  default_payment_method: 'pm_1',
  discounts: [],
  schedule: null,
  latest_invoice: 'in_1',
  items: list([
    {
      id: 'si_1',
      object: 'subscription_item',
      current_period_start: 1_700_000_000,
      current_period_end: 1_702_592_000,
      price: price('price_pro_m', 'pro', 'month', 2900, 'Pro monthly'),
    },
  ]),
  ...over,
});
