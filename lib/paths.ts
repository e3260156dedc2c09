import { fileURLToPath } from 'node:url';
import * as path from 'node:path';

/** Repository root (lib/ sits directly under it); CDK code never relies on the process cwd. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Entry file of a handler module named in functions/routes.ts (`http/system/health`). */
export function handlerEntry(handler: string): string {
  return path.join(REPO_ROOT, 'functions', `${handler}.ts`);
}
