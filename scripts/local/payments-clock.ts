/**
 * The commands of `npm run payments:clock` (scripts/payments-clock.ts): the payments
 * simulator's clock and event log, like Stripe's test clocks and its dashboard's event list.
 */
import type { PaymentsSimulator } from '../../functions/adapters/payments/simulated';
import { clockOffset, listDue } from '../../functions/adapters/payments/simulated/store';

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** `8d`, `12h`, `30m`, `90s`, `2w`, `1d12h`, or plain seconds. */
export function parseDuration(text: string): number {
  const t = text.trim();
  if (/^\d+$/u.test(t)) return Number(t);
  if (!/^(\d+[smhdw])+$/u.test(t)) throw new Error(`'${text}' is not a duration like 8d, 12h, 30m, 90s, 2w or 1d12h`);
  let total = 0;
  for (const [, n, unit] of t.matchAll(/(\d+)([smhdw])/gu)) total += Number(n) * UNITS[unit!]!;
  return total;
}

const iso = (seconds: number) => new Date(seconds * 1000).toISOString().replace('.000Z', 'Z');

export const USAGE = [
  'npm run payments:clock -- <command>',
  '  show                 the simulator clock, the steps due next and the latest events',
  '  advance <duration>   move the clock forward (8d, 12h, 30m, 2w, 1d12h, or seconds), running every',
  '                       trial end, renewal, retry and cancellation due on the way and delivering their events',
  '  events [count]       the latest events (default 20) and whether the webhook took them',
  '  redeliver <evt_id>   send one event to the webhook again',
].join('\n');

/** Runs one command against the simulator; returns the lines to print. */
export async function runClockCommand(args: readonly string[], sim: PaymentsSimulator): Promise<string[]> {
  const [command, arg] = args;
  const eventLines = async (count: number, since?: number) => {
    const all = await sim.listEvents();
    const picked = since === undefined ? all.slice(-count) : all.filter((e) => e.event.created >= since);
    return picked.map(({ event, delivery }) => {
      const obj = event.data.object as { id?: string; status?: string };
      return `  ${iso(event.created)}  ${event.type.padEnd(38)} ${String(obj.id ?? '').padEnd(28)} ${String(obj.status ?? '').padEnd(10)} ${delivery.status}${delivery.lastStatus ? ` (${delivery.lastStatus})` : delivery.lastError ? ` (${delivery.lastError})` : ''}  ${event.id}`;
    });
  };
  switch (command) {
    case 'show': {
      const now = await sim.now();
      const offset = await clockOffset();
      const days = (offset / 86_400).toFixed(2);
      const all = await sim.listEvents();
      const undelivered = all.filter((e) => e.delivery.status !== 'delivered').length;
      const due = await listDue<{ status: string }, { dueAt: number | null }>(9_999_999_999, 10);
      return [
        `Simulator clock: ${iso(now)} (wall clock + ${offset} s, ${days} days)`,
        `Next steps due (trial_will_end, trial end or renewal, payment retry, cancellation):`,
        ...(due.length
          ? due.map((d) => `  ${iso(d.sim.dueAt ?? 0)}  ${d.id.padEnd(28)} ${d.data.status}`)
          : ['  none']),
        `Events: ${all.length} logged, ${undelivered} not delivered yet (retried at the next advance)`,
        'Latest events:',
        ...(await eventLines(10)),
      ];
    }
    case 'advance': {
      if (!arg) throw new Error('advance needs a duration, e.g. advance 8d');
      const seconds = parseDuration(arg);
      const before = await sim.now();
      const result = await sim.advanceClock(seconds);
      return [
        `Clock: ${iso(before)} -> ${iso(result.now)} (+${seconds} s); ${result.steps} subscription step(s) run, ${result.redelivered} late event(s) delivered`,
        ...(await eventLines(0, before)),
      ];
    }
    case 'events':
      return eventLines(arg ? Math.max(1, Number(arg) || 20) : 20);
    case 'redeliver': {
      if (!arg) throw new Error('redeliver needs an event id (evt_sim_...)');
      const delivery = await sim.redeliverEvent(arg);
      if (!delivery) throw new Error(`no event ${arg} in the simulator's log`);
      return [
        `${arg}: ${delivery.status}${delivery.lastStatus ? ` (HTTP ${delivery.lastStatus})` : ''}${delivery.lastError ? `: ${delivery.lastError}` : ''}`,
      ];
    }
    default:
      throw new Error(USAGE);
  }
}
