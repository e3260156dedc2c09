/**
 * Starts a job asynchronously (Lambda `InvocationType: Event`): the caller answers at once and
 * the job runs on its own, with its own timeout. In AWS the function names come from
 * JOB_FUNCTIONS; locally the gateway emulates the Invoke API and runs the job handler in-process.
 */
import { lambda } from '../lib/aws/lambda';
import { config } from '../lib/env';

export async function startJob(jobName: string, payload: unknown): Promise<void> {
  const functionName = config().jobFunctions[jobName];
  if (!functionName) throw new Error(`job ${jobName} is not bound to this function (JOB_FUNCTIONS)`);
  const out = await lambda().invokeEvent(functionName, JSON.stringify(payload));
  if (out.StatusCode !== 202) throw new Error(`async invoke of ${jobName} answered ${String(out.StatusCode)}`);
}
