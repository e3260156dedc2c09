/** `npm run reset`: wipes the local stack's data (.data/), never under a running `npm start`. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resetData } from './local/stack-lock';

const dataDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '.data');
const outcome = resetData(dataDir);
if (outcome.kind === 'running') {
  console.error(
    `npm run reset: the local stack is running (npm start, pid ${outcome.pid}); stop it with Ctrl-C, then reset.`,
  );
  process.exit(1);
}
console.log(
  outcome.kind === 'removed'
    ? `Removed ${dataDir}: the next npm start creates the table, buckets and user pool afresh.`
    : 'Nothing to reset: .data/ does not exist.',
);
