/**
 * The local authoritative DNS server: what a user's DNS host is in AWS, on
 * 127.0.0.1 over UDP and TCP, so the domain checks make real DNS queries locally too. Built
 * on dns2 (docs/decisions/, "Local DNS server"). Records live in a JSON file under the
 * stack's data directory (`.data/dns/records.json` for `npm start`), re-read on every query,
 * so `npm run dns -- add ...`, tests and a hand edit all take effect at once.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import dns2 from 'dns2';
import { HOST, freePort } from './ports';

export type DnsRecordType = 'A' | 'AAAA' | 'CNAME' | 'TXT';
export const DNS_RECORD_TYPES: readonly DnsRecordType[] = ['A', 'AAAA', 'CNAME', 'TXT'];

export interface DnsRecord {
  readonly name: string;
  readonly type: DnsRecordType;
  readonly value: string;
  readonly ttl?: number;
}

const DEFAULT_TTL = 60;
const bare = (name: string) => name.trim().toLowerCase().replace(/\.$/u, '');

export function readRecords(file: string): DnsRecord[] {
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return Array.isArray(parsed)
      ? (parsed as DnsRecord[]).filter(
          (r) => r && typeof r.name === 'string' && DNS_RECORD_TYPES.includes(r.type) && typeof r.value === 'string',
        )
      : [];
  } catch {
    return [];
  }
}

function writeRecords(file: string, records: readonly DnsRecord[]): void {
  mkdirSync(path.dirname(file), { recursive: true });
  // Write then rename: a query never reads half a file.
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(records, null, 2)}\n`);
  renameSync(tmp, file);
}

/** Adds a record; a CNAME replaces the name's other records (a CNAME stands alone, RFC 1034 §3.6.2). */
export function addRecord(file: string, record: DnsRecord): DnsRecord {
  const r: DnsRecord = {
    name: bare(record.name),
    type: record.type,
    value: record.type === 'CNAME' ? bare(record.value) : record.value,
    ttl: record.ttl ?? DEFAULT_TTL,
  };
  if (!DNS_RECORD_TYPES.includes(r.type)) throw new Error(`record type must be one of ${DNS_RECORD_TYPES.join(', ')}`);
  if (!/^[a-z0-9_*-]+(\.[a-z0-9_-]+)*$/u.test(r.name)) throw new Error(`not a DNS name: ${record.name}`);
  const others = readRecords(file).filter(
    (x) =>
      !(x.name === r.name && (r.type === 'CNAME' || x.type === 'CNAME' || (x.type === r.type && x.value === r.value))),
  );
  writeRecords(file, [...others, r]);
  return r;
}

/** Removes the records of `name` (of `type` when given); returns how many went. */
export function removeRecords(file: string, name: string, type?: DnsRecordType): number {
  const all = readRecords(file);
  const kept = all.filter((x) => !(x.name === bare(name) && (!type || x.type === type)));
  writeRecords(file, kept);
  return all.length - kept.length;
}

export interface LocalDnsServer {
  readonly port: number;
  /** `127.0.0.1:<port>`, what DNS_RESOLVER holds */
  readonly address: string;
  readonly recordsFile: string;
  add(record: DnsRecord): DnsRecord;
  remove(name: string, type?: DnsRecordType): number;
  close(): Promise<void>;
}

const { Packet } = dns2;

function answerOf(r: DnsRecord, name: string): Record<string, unknown> {
  const base = { name, class: Packet.CLASS.IN, ttl: r.ttl ?? DEFAULT_TTL };
  switch (r.type) {
    case 'A':
      return { ...base, type: Packet.TYPE.A, address: r.value };
    case 'AAAA':
      return { ...base, type: Packet.TYPE.AAAA, address: r.value };
    case 'CNAME':
      return { ...base, type: Packet.TYPE.CNAME, domain: r.value };
    case 'TXT':
      return { ...base, type: Packet.TYPE.TXT, data: r.value };
  }
}

const TYPE_NAMES: Record<number, DnsRecordType> = {
  [Packet.TYPE.A]: 'A',
  [Packet.TYPE.AAAA]: 'AAAA',
  [Packet.TYPE.CNAME]: 'CNAME',
  [Packet.TYPE.TXT]: 'TXT',
};

/** Starts the server on 127.0.0.1:`port` (0: a free port), UDP and TCP on the same port. */
export async function startDnsServer(opts: { port: number; recordsFile: string }): Promise<LocalDnsServer> {
  const server = dns2.createServer({
    udp: true,
    tcp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const question = request.questions[0];
      // Authoritative for every name it holds; anything else does not exist here.
      response.header.aa = 1;
      response.header.ra = 0;
      if (!question) {
        response.header.rcode = Packet.RCODE.FORMERR;
        send(response);
        return;
      }
      const name = bare(question.name);
      const records = readRecords(opts.recordsFile).filter((r) => r.name === name);
      const wanted = TYPE_NAMES[question.type];
      const cname = records.find((r) => r.type === 'CNAME');
      const matches = cname && wanted !== 'CNAME' ? [cname] : records.filter((r) => r.type === wanted);
      for (const r of matches) response.answers.push(answerOf(r, question.name) as never);
      if (records.length === 0) response.header.rcode = Packet.RCODE.NXDOMAIN;
      send(response);
    },
  });
  const port = opts.port || (await freePort());
  const failed = new Promise<never>((_, reject) => server.once('error', reject));
  await Promise.race([server.listen({ udp: { port, address: HOST }, tcp: { port, address: HOST } }), failed]);
  return {
    port,
    address: `${HOST}:${port}`,
    recordsFile: opts.recordsFile,
    add: (record) => addRecord(opts.recordsFile, record),
    remove: (name, type) => removeRecords(opts.recordsFile, name, type),
    close: () => server.close() as Promise<void>,
  };
}
