// One cold start of a Lambda bundle in a fresh Node process (scripts/bench/cold-init.ts):
// import the bundle, run its first request against the local emulators, print one line
// `RESULT {json}`. Plain JavaScript so no TypeScript loader adds to what is measured.
import { pathToFileURL } from 'node:url';

const { bundle, event } = JSON.parse(process.env.COLD_INIT_CHILD ?? '{}');
const context = {
  awsRequestId: 'cold-init',
  functionName: 'cold-init',
  getRemainingTimeInMillis: () => 30_000,
};
// CPU time (every thread of the process) beside wall time: on a machine shared with other work,
// wall time also counts the time this process waited for a core; CPU time far less so.
const cpuMs = (u) => (u.user + u.system) / 1000;
const cpuStarted = process.cpuUsage();
const started = performance.now();
const mod = await import(pathToFileURL(bundle).href);
const imported = performance.now();
const cpuImported = process.cpuUsage();
// A handler that throws is measured too (its time and its error), so both sides compare alike.
let result = null;
let error = null;
try {
  result = await mod.handler(event, context);
} catch (err) {
  error = err instanceof Error ? `${err.name}: ${err.message}`.slice(0, 300) : String(err);
}
const done = performance.now();
const cpuDone = process.cpuUsage();
const body = result && typeof result === 'object' && typeof result.body === 'string' ? result.body.slice(0, 400) : null;
const statusCode = result && typeof result === 'object' && 'statusCode' in result ? result.statusCode : null;
console.log(
  `RESULT ${JSON.stringify({
    importMs: imported - started,
    firstRequestMs: done - imported,
    totalMs: done - started,
    importCpuMs: cpuMs(cpuImported) - cpuMs(cpuStarted),
    totalCpuMs: cpuMs(cpuDone) - cpuMs(cpuStarted),
    statusCode,
    body,
    error,
  })}`,
);
process.exit(0);
