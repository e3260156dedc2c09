/** `npm run reset`: wipes the local stack's data (.data/). Stop `npm start` first. */
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dataDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '.data');
if (existsSync(dataDir)) {
  rmSync(dataDir, { recursive: true, force: true });
  console.log(`Removed ${dataDir}: the next npm start creates the table, buckets and user pool afresh.`);
} else {
  console.log('Nothing to reset: .data/ does not exist.');
}
