/**
 * `npm run dns -- <command>`: the records of the local DNS server of `npm start`, as
 * a user would edit them at their DNS host. They live in .data/dns/records.json; the running
 * server reads that file on every query, so a change answers at once.
 *
 *   npm run dns -- add <name> <A|AAAA|CNAME|TXT> <value>
 *   npm run dns -- remove <name> [type]
 *   npm run dns -- list
 */
import path from 'node:path';
import { REPO_ROOT } from './local/app';
import { DNS_RECORD_TYPES, addRecord, readRecords, removeRecords, type DnsRecordType } from './local/dns-server';

const file = path.join(REPO_ROOT, '.data', 'dns', 'records.json');
const [command, name, type, ...rest] = process.argv.slice(2);
const usage = 'usage: npm run dns -- add <name> <A|AAAA|CNAME|TXT> <value> | remove <name> [type] | list';

function typeOf(raw: string | undefined): DnsRecordType {
  const t = raw?.toUpperCase() as DnsRecordType;
  if (!DNS_RECORD_TYPES.includes(t)) throw new Error(`type must be one of ${DNS_RECORD_TYPES.join(', ')}`);
  return t;
}

try {
  if (command === 'add' && name && type && rest.length > 0) {
    const r = addRecord(file, { name, type: typeOf(type), value: rest.join(' ') });
    console.log(`added ${r.name} ${r.type} ${r.value}`);
  } else if (command === 'remove' && name) {
    console.log(`removed ${removeRecords(file, name, type ? typeOf(type) : undefined)} record(s) of ${name}`);
  } else if (command === 'list') {
    for (const r of readRecords(file)) console.log(`${r.name}\t${r.type}\t${r.value}`);
  } else {
    console.error(usage);
    process.exitCode = 1;
  }
} catch (err) {
  console.error(`npm run dns: ${err instanceof Error ? err.message : String(err)}`);
  process.exitCode = 1;
}
