/**
 * `npm run receipts:keys -- <command>`: the keys delivery receipts are signed with.
 *
 *   npm run receipts:keys -- list     every key id (newest first) and which one signs
 *   npm run receipts:keys -- rotate   add a key that signs from now on; the older ones stay
 *                                     published, so receipts signed with them keep verifying
 *
 * Locally the key set is `.data/receipts/keys.json` (the `npm start` stack's); with
 * RECEIPT_KEYS_SECRET_ID (and AWS credentials and AWS_REGION) it is that Secrets Manager secret
 * of a deployment (the `ReceiptSigningKeys` secret of SendBridge-Core). Running functions pick up
 * a rotation within KEY_SET_CACHE_MS.
 */
import path from 'node:path';
import { REPO_ROOT } from './local/app';
import { configuredKeyStore } from '../functions/adapters/receipt-keys';
import { ENV } from '../functions/lib/env-names';
import { KEY_SET_CACHE_MS, parseStoredKeySet, rotateReceiptKey } from '../functions/services/receipts';

const env = { ...process.env };
if (!env[ENV.receiptKeysSecretId]) env[ENV.receiptKeysFile] ??= path.join(REPO_ROOT, '.data', 'receipts', 'keys.json');
const store = configuredKeyStore(env);
const where = env[ENV.receiptKeysSecretId] ?? env[ENV.receiptKeysFile];
const command = process.argv[2];

try {
  if (command === 'list') {
    const set = parseStoredKeySet(await store.read());
    if (!set) console.log(`no key yet in ${where}: the first receipt signed (or GET /api/receipts/keys) makes one`);
    for (const k of [...(set?.keys ?? [])].reverse())
      console.log(`${k.kid}\t${new Date(k.createdAt).toISOString()}${k.kid === set?.active ? '\tsigning' : ''}`);
  } else if (command === 'rotate') {
    const set = await rotateReceiptKey(store);
    console.log(`${where}: ${set.active} signs from now on (${set.keys.length} keys published)`);
    console.log(`running functions switch within ${KEY_SET_CACHE_MS / 60_000} minutes`);
  } else {
    console.error('usage: npm run receipts:keys -- list | rotate');
    process.exitCode = 1;
  }
} catch (err) {
  console.error(`npm run receipts:keys: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
