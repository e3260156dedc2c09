/**
 * `sendbridge receipt verify <file> [--keys jwks.json]`: checks a signed delivery receipt. With
 * --keys it reads the published keys from that file and makes no request (offline); without,
 * it fetches them from the deployment (GET /api/receipts/keys). Exit 0 when valid, 6 when refused.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { JSONWebKeySet } from 'jose';
import { parseKeySet, receiptMeaning, verifyReceiptText } from '../../../functions/domain/receipt';
import type { ReceiptProblem } from '../../../functions/domain/receipt-format';
import type { ReceiptCheckResponse } from '../../../functions/domain/receipts-api';
import type { Context } from './context';
import { CliError, EXIT, UsageError } from './errors';

const WHY: Record<ReceiptProblem, string> = {
  receipt_malformed: 'this is not a SendBridge receipt file (or it is cut short)',
  receipt_unknown_key: 'it names a signing key SendBridge never published: forged, or from another deployment',
  receipt_bad_signature: 'the signature does not match: the receipt was changed after it was signed',
  receipt_mismatch: 'the readable part differs from what was signed: the receipt was changed after it was signed',
};

async function readText(ctx: Context, file: string, what: string): Promise<string> {
  try {
    return await readFile(path.resolve(ctx.cwd, file), 'utf8');
  } catch (err) {
    throw new UsageError(`${what}: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

export async function receiptVerify(ctx: Context, v: Record<string, unknown>, file: string): Promise<number> {
  const text = await readText(ctx, file, 'receipt verify');
  let keys: JSONWebKeySet | null;
  let keysFrom: string;
  if (typeof v.keys === 'string') {
    keys = parseKeySet(await readText(ctx, v.keys, 'receipt verify --keys'));
    if (!keys) throw new UsageError(`receipt verify --keys: ${v.keys} is not a JWKS ({"keys": [...]})`);
    keysFrom = v.keys;
  } else {
    keys = parseKeySet(JSON.stringify(await ctx.client.call<unknown>('/receipts/keys')));
    if (!keys) throw new CliError(`${ctx.origin}/api/receipts/keys answered no key set`, EXIT.server, 'no_key_set');
    keysFrom = `${ctx.origin}/api/receipts/keys`;
  }
  const check = await verifyReceiptText(text, keys);
  if (!check.ok) {
    if (ctx.json) ctx.printJson({ valid: false, code: check.problem, keys: keysFrom });
    else ctx.print(`INVALID receipt ${file}: ${WHY[check.problem]} (${check.problem})`);
    return EXIT.refused;
  }
  const meaning = receiptMeaning(check.receipt);
  // online: also ask the deployment whether it still holds the delivery as signed
  let recorded: boolean | undefined;
  if (typeof v.keys !== 'string') {
    const jws = (JSON.parse(text) as { jws: string }).jws;
    const online = await ctx.client.call<ReceiptCheckResponse>('/receipts/check', { body: { jws } });
    recorded = online.valid && online.recorded;
  }
  if (ctx.json) {
    ctx.printJson({
      valid: true,
      kid: check.kid,
      keys: keysFrom,
      ...(recorded === undefined ? {} : { recorded }),
      receipt: check.receipt,
      ...meaning,
    });
    return EXIT.ok;
  }
  const r = check.receipt;
  ctx.print(`VALID receipt: signed with key ${check.kid} of ${keysFrom}`);
  if (recorded !== undefined)
    ctx.print(
      recorded
        ? `  ${ctx.origin} still holds this delivery's record, as signed`
        : `  ${ctx.origin} no longer holds this delivery's record (its transfer was deleted): the signature still stands`,
    );
  ctx.print(
    `  transfer ${r.transfer}, delivery ${r.delivery}, ${r.what}, ${r.bytes} bytes, delivered ${r.deliveredAt}`,
  );
  ctx.print(
    `  recipient: ${r.recipient.kind}${r.recipient.kind === 'link' ? '' : ` ${r.recipient.email}`}; country ${r.country}`,
  );
  for (const f of r.files) ctx.print(`  ${f.sha256 ?? '(no SHA-256 yet)'}  ${f.size}  ${f.path}`);
  ctx.print('It proves:');
  for (const line of meaning.proves) ctx.print(`  - ${line}`);
  ctx.print('It does not prove:');
  for (const line of meaning.doesNotProve) ctx.print(`  - ${line}`);
  return EXIT.ok;
}
