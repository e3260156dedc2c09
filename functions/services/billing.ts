/**
 * Billing above the payments interface (contract functions/domain/billing-api.ts):
 * checkout, the billing page's actions, the webhook's effects on the user, lifetime codes.
 * Every function takes the provider (functions/adapters/payments/index.ts `payments()` in the
 * handlers), so the same code runs against Stripe and the simulator.
 *
 * Only the provider's verified state chooses a role (spec §6): the browser's price id is
 * looked up among the provider's prices, its ids and addresses must be the caller's own, and
 * the webhook re-reads what it is told from the provider before it changes a user.
 */
import { randomBytes } from 'node:crypto';
import { PAID_ROLES, PLANS, REFUND_DAYS, TRIAL_DAYS, limitsFor, type Role } from '../domain/plans';
import { formatBytes } from '../domain/format';
import {
  SUMO_MAX_CODES,
  SUMO_TIERS,
  TRIAL_ENDING_PATH,
  type AddCardRequest,
  type BillingConfigResponse,
  type CardView,
  type ChangePlanRequest,
  type CheckoutRequest,
  type CheckoutResponse,
  type InvoiceView,
  type InvoicesResponse,
  type PriceView,
  type RedeemResponse,
  type SetupIntentResponse,
  type StripeDataResponse,
} from '../domain/billing-api';
import {
  baseRoleOf,
  billingNow,
  billingStateOf,
  changeDirection,
  currentSubscription,
  effectiveRole,
  higherTier,
  isLiveStatus,
  priceOf,
  refundableUntil,
  stateDecision,
  stripeDataResponse,
  subscriptionRoleOf,
  sumoRoleOf,
} from '../domain/billing';
import {
  CardError,
  InvalidRequestError,
  WebhookError,
  type CheckoutSessionObject,
  type CustomerObject,
  type InvoiceObject,
  type PaymentEvent,
  type PaymentsProvider,
  type SubscriptionObject,
} from '../adapters/payments/provider';
import { HANDLED_EVENT_TYPES, paymentEventEnvelopeSchema, paymentEventSchema } from '../adapters/payments/event-schema';
import {
  claimEvent,
  getSumoCode,
  linkCustomer,
  putBillingState,
  putSumoCode,
  redeemSumoCode,
  releaseEvent,
  setFirstCharge,
  setStripeId,
  userIdByCustomer,
} from '../data/billing';
import { getProfile, type UserProfile } from '../data/users';
import { HttpError, badRequest, conflict, forbidden } from '../lib/errors';
import { hashToken } from '../lib/secrets';
import { errorFields, log } from '../lib/log';
import { config } from '../lib/env';
import { requireProfile } from './accounts';
import { cardHttpError } from './payment-errors';
import { mailTrialEnding } from './mail';

/** Optimistic writes retried this often before the request fails (and the provider retries). */
const MAX_TRIES = 5;

// ---- who may use billing -------------------------------------------------------------------------

/** The caller's profile; team members never see or change billing (spec §2: Billing hidden from team members). */
export async function billingUser(userId: string): Promise<UserProfile> {
  const profile = await requireProfile(userId);
  if (profile.isTeamMember) throw forbidden('team_member_billing', "Billing is managed by your team's admin.");
  return profile;
}

/** Ids the browser sends along (spec §7: SSuserId, stripeCustomerId, mongo_id) must be the caller's own. */
function assertOwnIds(
  profile: UserProfile,
  ids: { userId?: string | undefined; customerId?: string | undefined },
): void {
  if (ids.userId !== undefined && ids.userId !== '' && ids.userId !== profile.userId)
    throw forbidden('not_your_account', 'You can only change your own subscription.');
  if (ids.customerId !== undefined && ids.customerId !== '' && ids.customerId !== profile.stripeId)
    throw forbidden('not_your_account', 'You can only change your own subscription.');
}

/** The provider refused a request (spec §8: the checkout reloads); a card problem in the provider's words (402). */
function providerError(err: unknown): never {
  if (err instanceof CardError) throw cardHttpError(err);
  if (err instanceof InvalidRequestError)
    throw badRequest('payment_request_invalid', err.message, {
      code: err.code,
      ...(err.param ? { param: err.param } : {}),
    });
  throw err;
}

async function guarded<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    return providerError(err);
  }
}

// ---- GET /billing/config -------------------------------------------------------------------------

/** Plans the spec prices as 'not shown': offered as 'Contact us'. */
export const CONTACT_ROLES: readonly Role[] = SUMO_TIERS.filter((r) => PLANS[r].price === null);

export async function billingConfig(provider: PaymentsProvider): Promise<BillingConfigResponse> {
  // The prices first: a Stripe provider loads its keys (publishable key included) on its first call.
  const prices = await provider.prices();
  return {
    provider: provider.name,
    publishableKey: provider.publishableKey,
    prices,
    trialDays: TRIAL_DAYS,
    refundDays: REFUND_DAYS,
    contactRoles: CONTACT_ROLES,
  };
}

/** The browser's price id, as one of the provider's prices on sale: never a role or amount from the request. */
async function priceOnSale(provider: PaymentsProvider, priceId: string): Promise<PriceView> {
  const price = (await provider.prices()).find((p) => p.priceId === priceId);
  if (!price || !PAID_ROLES.includes(price.role)) throw badRequest('unknown_price', 'This price is not on sale.');
  return price;
}

// ---- the provider's view of the user ----------------------------------------------------------------

interface ProviderView {
  readonly customer: CustomerObject | null;
  readonly subscription: SubscriptionObject | null;
}

async function providerView(provider: PaymentsProvider, profile: UserProfile): Promise<ProviderView> {
  if (!profile.stripeId) return { customer: null, subscription: null };
  const customer = await provider.retrieveCustomer(profile.stripeId);
  return { customer, subscription: currentSubscription(customer, profile.subscriptionId) };
}

function dataResponse(profile: UserProfile, view: ProviderView, wallClock: number): StripeDataResponse {
  return stripeDataResponse({
    ...view,
    sumoCodes: profile.sumoCodes ?? 0,
    firstChargeAt: profile.firstChargeAt ?? null,
    now: billingNow(wallClock, profile.billingUpdatedAt),
    heldRole: baseRoleOf(profile),
  });
}

/** The live subscription the billing page acts on; 409 no_subscription without one. */
async function liveSubscription(
  provider: PaymentsProvider,
  profile: UserProfile,
): Promise<ProviderView & { subscription: SubscriptionObject }> {
  const view = await providerView(provider, profile);
  if (!view.subscription || !isLiveStatus(view.subscription.status))
    throw conflict('no_subscription', 'You have no subscription to change.');
  return { ...view, subscription: view.subscription };
}

// ---- the user's billing state ------------------------------------------------------------------------

export type ApplyResult = 'applied' | 'stale' | 'other' | 'no-user';

/**
 * Stores a subscription state on its user, with the role it gives at once (limits follow).
 * A state older than the stored one is ignored; one as old as the stored one is replaced by
 * the provider's current object (two events in one second); a state of a subscription that is
 * over never replaces another live one. Optimistic: re-read and decide again on a race.
 */
export async function applySubscription(
  provider: PaymentsProvider,
  userId: string,
  sub: SubscriptionObject,
  customer: CustomerObject | null,
  at: number,
): Promise<ApplyResult> {
  for (let attempt = 0; attempt < MAX_TRIES; attempt += 1) {
    const profile = await getProfile(userId);
    if (!profile) return 'no-user';
    let state = billingStateOf(sub, customer, at);
    const decision = stateDecision(profile, state);
    if (decision === 'stale' || decision === 'other') return decision;
    if (decision === 'same-time') {
      const fresh = await provider.retrieveCustomer(sub.customer);
      const current = fresh?.subscriptions?.data.find((s) => s.id === sub.id);
      if (current) state = billingStateOf(current, fresh, at);
    }
    const role = effectiveRole({
      subscriptionRole: state.subscriptionRole,
      status: state.status,
      sumoCodes: profile.sumoCodes ?? 0,
    });
    if (
      await putBillingState(userId, state, role, {
        billingUpdatedAt: profile.billingUpdatedAt ?? null,
        sumoCodes: profile.sumoCodes ?? 0,
      })
    ) {
      await linkCustomer(state.stripeId, userId, at);
      return 'applied';
    }
  }
  throw new Error('billing state changed on every try');
}

// ---- POST /stripe/createSubscription -------------------------------------------------------------------

export async function createCheckout(
  provider: PaymentsProvider,
  userId: string,
  body: CheckoutRequest,
  appOrigin: string,
): Promise<CheckoutResponse> {
  const profile = await billingUser(userId);
  assertOwnIds(profile, { userId: body.mongo_id });
  if (body.customer_email.trim().toLowerCase() !== profile.email.toLowerCase())
    throw forbidden('not_your_account', 'You can only change your own subscription.');
  const price = await priceOnSale(provider, body.price_id);
  const { subscription } = await providerView(provider, profile);
  if ((subscription && isLiveStatus(subscription.status)) || (profile.subscriptionId && isLiveStatus(profile.status))) {
    throw conflict('already_subscribed', 'You already have a subscription: change its plan on the billing page.');
  }
  const session = await guarded(() =>
    provider.createCheckoutSession({
      price,
      userId,
      customerEmail: profile.email,
      ...(profile.stripeId ? { customerId: profile.stripeId } : {}),
      ...(body.fullName ? { fullName: body.fullName } : {}),
      ...(body.referrer ? { referrer: body.referrer } : {}),
      ...(body.client_reference_id ? { clientReferenceId: body.client_reference_id } : {}),
      ...(body.coupon_id ? { couponId: body.coupon_id } : {}),
      trialDays: TRIAL_DAYS,
      returnUrl: `${appOrigin}/thankyou2?session_id={CHECKOUT_SESSION_ID}`,
    }),
  );
  return { clientSecret: session.client_secret, type: provider.name, sessionId: session.id };
}

// ---- GET /getStripeData, GET /billing/invoices -----------------------------------------------------------

export async function stripeData(provider: PaymentsProvider, userId: string, now: number): Promise<StripeDataResponse> {
  const profile = await billingUser(userId);
  return dataResponse(profile, await providerView(provider, profile), now);
}

function invoiceView(i: InvoiceObject): InvoiceView {
  return {
    id: i.id,
    number: i.number,
    created: i.created * 1000,
    total: i.total / 100,
    amountPaid: i.amount_paid / 100,
    currency: i.currency,
    status: i.status,
    pdfUrl: i.invoice_pdf,
    hostedUrl: i.hosted_invoice_url,
    refunded: (i.amount_refunded ?? 0) > 0,
  };
}

export async function invoices(provider: PaymentsProvider, userId: string): Promise<InvoicesResponse> {
  const profile = await billingUser(userId);
  if (!profile.stripeId) return { invoices: [] };
  const list = await provider.listInvoices(profile.stripeId);
  return {
    invoices: list
      .filter((i) => i.customer === profile.stripeId)
      .map(invoiceView)
      .sort((a, b) => b.created - a.created),
  };
}

// ---- the card ---------------------------------------------------------------------------------------------

export async function setupIntent(provider: PaymentsProvider, userId: string): Promise<SetupIntentResponse> {
  const profile = await billingUser(userId);
  if (!profile.stripeId) throw conflict('no_subscription', 'You have no subscription to change.');
  const intent = await guarded(() => provider.createSetupIntent(profile.stripeId!));
  return { clientSecret: intent.client_secret, type: provider.name };
}

/** Re-reads the user's subscription from the provider and stores it (after a change made through a route). */
async function syncFromProvider(provider: PaymentsProvider, profile: UserProfile, now: number): Promise<ProviderView> {
  const view = await providerView(provider, profile);
  if (view.subscription)
    await applySubscription(
      provider,
      profile.userId,
      view.subscription,
      view.customer,
      billingNow(now, profile.billingUpdatedAt),
    );
  return view;
}

export async function addCard(
  provider: PaymentsProvider,
  userId: string,
  body: AddCardRequest,
  now: number,
): Promise<{ card: CardView }> {
  const profile = await billingUser(userId);
  assertOwnIds(profile, { userId: body.SSuserId, customerId: body.stripeCustomerId });
  if (!profile.stripeId) throw conflict('no_subscription', 'You have no subscription to change.');
  const pm = await guarded(() => provider.setDefaultPaymentMethod(profile.stripeId!, body.paymentMethodId));
  await syncFromProvider(provider, profile, now);
  return {
    card: { brand: pm.card.brand, last4: pm.card.last4, expMonth: pm.card.exp_month, expYear: pm.card.exp_year },
  };
}

// ---- POST /create-subscription: change plan or period ----------------------------------------------------

export async function changePlan(
  provider: PaymentsProvider,
  userId: string,
  body: ChangePlanRequest,
  now: number,
): Promise<StripeDataResponse> {
  const profile = await billingUser(userId);
  assertOwnIds(profile, { userId: body.SSuserId, customerId: body.stripeCustomerId });
  const price = await priceOnSale(provider, body.priceId);
  const { subscription, customer } = await liveSubscription(provider, profile);
  const current = priceOf(subscription);
  const direction = changeDirection(
    {
      role: subscriptionRoleOf(subscription, customer),
      period: current?.recurring?.interval ?? null,
      priceId: current?.id ?? null,
    },
    { role: price.role, period: price.period, priceId: price.priceId },
  );
  if (direction === 'same') throw conflict('plan_unchanged', 'You are on this plan already.');
  // The plan the account would have (lifetime codes count): its storage must hold what is stored now.
  const after = higherTier(price.role, sumoRoleOf(profile.sumoCodes ?? 0));
  const used = Math.max(0, profile.storageUsed ?? 0);
  const limit = limitsFor(after).storage;
  if (used > limit) {
    throw new HttpError(
      409,
      'storage_exceeds_plan',
      `You store ${formatBytes(used)}, more than the ${PLANS[after].displayName} plan's ${formatBytes(limit)}. Delete some transfers first.`,
      { used, limit, role: after },
    );
  }
  await guarded(() =>
    provider.changePrice(subscription.id, price.priceId, direction === 'upgrade' ? 'now' : 'period_end'),
  );
  const view = await syncFromProvider(provider, profile, now);
  return dataResponse((await getProfile(userId)) ?? profile, view, now);
}

// ---- POST /billing/cancel, POST /billing/refund -----------------------------------------------------------

export async function setCancel(
  provider: PaymentsProvider,
  userId: string,
  cancel: boolean,
  now: number,
): Promise<StripeDataResponse> {
  const profile = await billingUser(userId);
  const { subscription } = await liveSubscription(provider, profile);
  await guarded(() => provider.setCancelAtPeriodEnd(subscription.id, cancel));
  const view = await syncFromProvider(provider, profile, now);
  return dataResponse((await getProfile(userId)) ?? profile, view, now);
}

/** The 30-day no-risk refund: every paid invoice refunded, the subscription ended now (free at once). */
export async function refund(provider: PaymentsProvider, userId: string, now: number): Promise<StripeDataResponse> {
  const profile = await billingUser(userId);
  const { subscription } = await liveSubscription(provider, profile);
  if (profile.firstChargeAt === undefined)
    throw conflict('nothing_to_refund', 'Nothing has been charged yet: cancel the trial instead.');
  if (refundableUntil(profile.firstChargeAt, billingNow(now, profile.billingUpdatedAt)) === null) {
    throw conflict('refund_window_over', `Refunds are possible within ${REFUND_DAYS} days of the first payment.`);
  }
  const result = await guarded(() => provider.refundAndCancel(subscription.id));
  const customer = await provider.retrieveCustomer(result.subscription.customer);
  await applySubscription(provider, userId, result.subscription, customer, billingNow(now, profile.billingUpdatedAt));
  const updated = (await getProfile(userId)) ?? profile;
  return dataResponse(
    updated,
    { customer, subscription: currentSubscription(customer, result.subscription.id) ?? result.subscription },
    now,
  );
}

// ---- POST /appsumo/redeem -------------------------------------------------------------------------------

/** Codes are compared without case, spaces or dashes: `sb-abcd efgh` is `SBABCDEFGH`. */
export function normalizeSumoCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]+/gu, '');
}

/** Crockford's base32 without the look-alikes: a person can type a code read from a screen. */
const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';

/** A new code: `SB-XXXX-XXXX-XXXX-XXXX`, 16 random characters of 30 (78 bits). */
export function newSumoCode(): string {
  let chars = '';
  // Bytes past the last whole multiple of the alphabet are skipped, so every character is equally likely.
  const limit = 256 - (256 % CODE_ALPHABET.length);
  while (chars.length < 16)
    for (const b of randomBytes(24))
      if (b < limit && chars.length < 16) chars += CODE_ALPHABET[b % CODE_ALPHABET.length];
  return `SB-${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8, 12)}-${chars.slice(12, 16)}`;
}

/**
 * Issues `count` lifetime codes in a batch (the operator's `npm run sumo:codes`): each stored
 * only as its hash (B5), returned once to be handed out.
 */
export async function issueSumoCodes(count: number, batch: string, now: number): Promise<string[]> {
  if (!Number.isInteger(count) || count < 1 || count > 10_000) throw new RangeError('issue 1 to 10000 codes at a time');
  const codes: string[] = [];
  while (codes.length < count) {
    const code = newSumoCode();
    if (await putSumoCode(hashToken(normalizeSumoCode(code)), batch, now)) codes.push(code);
  }
  return codes;
}

export async function redeem(userId: string, code: string, now: number): Promise<RedeemResponse> {
  const hash = hashToken(normalizeSumoCode(code));
  for (let attempt = 0; attempt < MAX_TRIES; attempt += 1) {
    const profile = await billingUser(userId);
    const count = profile.sumoCodes ?? 0;
    if (count >= SUMO_MAX_CODES)
      throw conflict('sumo_codes_full', `You have redeemed all ${SUMO_MAX_CODES} lifetime codes.`);
    const item = await getSumoCode(hash);
    if (!item) throw badRequest('invalid_code', 'This code is not valid.');
    if (item.redeemedBy) throw conflict('code_already_used', 'This code has already been redeemed.');
    const sumoRole = sumoRoleOf(count + 1);
    const role = higherTier(baseRoleOf(profile), sumoRole);
    if (
      await redeemSumoCode(
        userId,
        hash,
        role,
        { billingUpdatedAt: profile.billingUpdatedAt ?? null, sumoCodes: count },
        SUMO_MAX_CODES,
        now,
      )
    ) {
      return { codesRedeemed: count + 1, sumoRole, role };
    }
  }
  throw new Error('lifetime code redemption raced on every try');
}

// ---- POST /stripe/webhook ---------------------------------------------------------------------------------

export interface WebhookResult {
  readonly received: true;
}

/** The provider's refusal of a webhook, as our 400s (each its own code). */
function refusal(err: WebhookError): HttpError {
  switch (err.code) {
    case 'signature_too_old':
      return badRequest('signature_too_old', 'The webhook signature is too old.');
    case 'invalid_event':
      return badRequest('invalid_event', 'The webhook body is not an event.');
    default:
      return badRequest('invalid_signature', 'The webhook signature is not valid.');
  }
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

const invalidEvent = () => badRequest('invalid_event', 'The webhook body is not an event.');

// The objects below passed paymentEventSchema: the fields the handler reads are there, in range.
const asSubscription = (o: unknown) => o as SubscriptionObject;
const asInvoice = (o: unknown) => o as InvoiceObject;
const asSession = (o: unknown) => o as CheckoutSessionObject;

/**
 * The account of a customer: the `STRIPECUST#` link, else the user id our server put on the
 * customer or subscription when the checkout was created (metadata.userId), which is then
 * linked. A hint names an account that must exist; a customer linked to someone else is never
 * moved.
 */
async function userOfCustomer(
  customerId: string,
  hints: readonly (string | null | undefined)[],
  now: number,
): Promise<string | undefined> {
  const linked = await userIdByCustomer(customerId);
  if (linked) return linked;
  for (const hint of hints) {
    if (!isText(hint) || !(await getProfile(hint))) continue;
    if (await linkCustomer(customerId, hint, now)) return hint;
    return userIdByCustomer(customerId);
  }
  return undefined;
}

async function onSubscriptionEvent(provider: PaymentsProvider, event: PaymentEvent, at: number): Promise<void> {
  const sub = asSubscription(event.data.object);
  const customer = await provider.retrieveCustomer(sub.customer);
  const userId = await userOfCustomer(sub.customer, [customer?.metadata.userId, sub.metadata?.userId], at);
  if (!userId) {
    log.warn('webhook: subscription of an unknown customer', { eventId: event.id, type: event.type });
    return;
  }
  if (event.type === 'customer.subscription.trial_will_end') {
    await mailTrialEnd(userId, sub);
    return;
  }
  await applySubscription(provider, userId, sub, customer, at);
}

async function mailTrialEnd(userId: string, sub: SubscriptionObject): Promise<void> {
  const profile = await getProfile(userId);
  if (!profile || sub.trial_end == null) return;
  const price = priceOf(sub);
  const role = subscriptionRoleOf(sub, null);
  await mailTrialEnding(profile.email, profile.lang, {
    planName: PLANS[role].displayName,
    trialEnd: sub.trial_end * 1000,
    amount: typeof price?.unit_amount === 'number' ? price.unit_amount / 100 : null,
    currency: price?.currency ?? null,
    period: price?.recurring?.interval ?? null,
    link: `${config().appOrigin}${TRIAL_ENDING_PATH}`,
  });
}

async function onCheckoutCompleted(provider: PaymentsProvider, event: PaymentEvent, at: number): Promise<void> {
  const hinted = asSession(event.data.object);
  // The event's copy is a hint: the provider's own session decides.
  const session = await provider.retrieveCheckoutSession(hinted.id);
  if (session?.status !== 'complete' || !session.customer) return;
  const userId = await userOfCustomer(session.customer, [session.metadata.userId, session.client_reference_id], at);
  if (!userId) {
    log.warn('webhook: checkout of an unknown user', { eventId: event.id });
    return;
  }
  await setStripeId(userId, session.customer);
  const customer = await provider.retrieveCustomer(session.customer);
  const sub = customer?.subscriptions?.data.find((s) => s.id === session.subscription);
  if (sub) await applySubscription(provider, userId, sub, customer, at);
}

async function onInvoiceEvent(provider: PaymentsProvider, event: PaymentEvent, at: number): Promise<void> {
  const invoice = asInvoice(event.data.object);
  const customer = await provider.retrieveCustomer(invoice.customer);
  const userId = await userOfCustomer(invoice.customer, [customer?.metadata.userId], at);
  if (!userId) return;
  // The invoice says a charge happened or failed; the subscription's status says what follows.
  const sub = invoice.subscription
    ? customer?.subscriptions?.data.find((s) => s.id === invoice.subscription)
    : undefined;
  if (sub) await applySubscription(provider, userId, sub, customer, at);
  if (event.type === 'invoice.paid' && invoice.amount_paid > 0) await setFirstCharge(userId, at);
}

/** Verifies, deduplicates by event id and applies one webhook event. Unknown types: 200, ignored. */
export async function handleWebhook(
  provider: PaymentsProvider,
  rawBody: string,
  signature: string | undefined,
  now: number,
): Promise<WebhookResult> {
  let event: PaymentEvent;
  try {
    event = await provider.verifyWebhook(rawBody, signature, Math.floor(now / 1000));
  } catch (err) {
    if (err instanceof WebhookError) throw refusal(err);
    throw err;
  }
  // Validly signed is not well formed: every shape the handler reads is checked first, so an
  // odd event is a 400 the provider sees, never a failure halfway through applying it.
  if (!paymentEventEnvelopeSchema.safeParse(event).success) throw invalidEvent();
  if (!HANDLED_EVENT_TYPES.includes(event.type)) return { received: true };
  if (!paymentEventSchema.safeParse(event).success) throw invalidEvent();
  if (!(await claimEvent(event.id, event.type, now))) return { received: true };
  const at = event.created * 1000;
  try {
    if (event.type === 'checkout.session.completed') await onCheckoutCompleted(provider, event, at);
    else if (event.type.startsWith('customer.subscription.')) await onSubscriptionEvent(provider, event, at);
    else await onInvoiceEvent(provider, event, at);
  } catch (err) {
    // Not processed: the claim is given back so the provider's retry is.
    await releaseEvent(event.id).catch((e: unknown) =>
      log.error('webhook: claim not released', { eventId: event.id, ...errorFields(e) }),
    );
    throw err;
  }
  return { received: true };
}
