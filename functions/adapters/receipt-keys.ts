/**
 * Where the receipt signing keys live: one Secrets Manager secret in AWS (RECEIPT_KEYS_SECRET_ID,
 * created by CDK with no keys; the receipts service adds them), a file in the local stack's data
 * dir (RECEIPT_KEYS_FILE). Both hold the key set's JSON text (services/receipts.ts) and take a
 * write only when nobody wrote since the text the writer read, so two cold starts creating the
 * first key, or two rotations, cannot leave receipts signed by a key that was overwritten.
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ENV } from '../lib/env-names';

export interface KeySetStore {
  /** the stored text, or undefined when nothing is stored yet */
  read(): Promise<string | undefined>;
  /** stores `next` when the store still holds `previous`; false when another writer came first */
  write(previous: string | undefined, next: string): Promise<boolean>;
}

/**
 * The version token of a write: the hash of what it replaces. Every writer that read the same
 * text uses the same token, and Secrets Manager refuses a second version with that token and
 * other content (ResourceExistsException): a compare-and-set on a store that has none.
 */
export function writeTokenOf(previous: string | undefined): string {
  return createHash('sha256')
    .update(previous ?? '')
    .digest('hex');
}

export function fileKeyStore(file: string): KeySetStore {
  const readText = async () => {
    try {
      return await readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  };
  return {
    read: readText,
    async write(previous, next) {
      await mkdir(path.dirname(file), { recursive: true });
      if ((await readText()) !== previous) return false;
      const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(tmp, next, { mode: 0o600 });
      await rename(tmp, file);
      return true;
    },
  };
}

export function secretKeyStore(secretId: string): KeySetStore {
  return {
    async read() {
      const { secretsManager, GetSecretValueCommand } = await import('../lib/clients/secrets-manager');
      const out = await secretsManager().send(new GetSecretValueCommand({ SecretId: secretId }));
      return out.SecretString;
    },
    async write(previous, next) {
      const { secretsManager, PutSecretValueCommand } = await import('../lib/clients/secrets-manager');
      try {
        await secretsManager().send(
          new PutSecretValueCommand({
            SecretId: secretId,
            SecretString: next,
            ClientRequestToken: writeTokenOf(previous),
          }),
        );
        return true;
      } catch (err) {
        if ((err as { name?: string }).name === 'ResourceExistsException') return false;
        throw err;
      }
    },
  };
}

/** The store this process is configured with: the secret in AWS, the file locally. */
export function configuredKeyStore(env: NodeJS.ProcessEnv = process.env): KeySetStore {
  const secretId = env[ENV.receiptKeysSecretId];
  if (secretId) return secretKeyStore(secretId);
  const file = env[ENV.receiptKeysFile];
  if (file) return fileKeyStore(file);
  throw new Error(`${ENV.receiptKeysSecretId} or ${ENV.receiptKeysFile} must be set to sign or publish receipts`);
}
