/**
 * `STRIPE_SECRET_KEY=sk_... npm run stripe:setup`: creates SendBridge's products and prices in a
 * Stripe account, idempotently (scripts/local/stripe-setup.ts), and prints STRIPE_PRICES for
 * the CDK context (`-c stripePrices='…'`, docs/deploy.md). Needs network access to Stripe.
 */
import Stripe from 'stripe';
import { setUpStripeCatalogue } from './local/stripe-setup';

async function main() {
  const key = process.env.STRIPE_SECRET_KEY;
  if (!key || !/^(sk|rk)_(test|live)_/u.test(key))
    throw new Error("set STRIPE_SECRET_KEY to the account's secret key (sk_test_... to try it in test mode)");
  const stripe = new Stripe(key, { httpClient: Stripe.createFetchHttpClient(), maxNetworkRetries: 2 });
  const { prices, created } = await setUpStripeCatalogue(stripe, (line) => console.log(line));
  if (created.length === 0) console.log('Everything was already there: nothing created.');
  const json = JSON.stringify(prices);
  console.log(
    `\nSTRIPE_PRICES=${json}\n\nDeploy with:\n  npx cdk deploy --all -c payments=stripe -c stripePrices='${json}' …`,
  );
}

main().catch((err) => {
  console.error(`npm run stripe:setup: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
