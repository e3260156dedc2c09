/**
 * Starts a job asynchronously (Lambda `InvocationType: Event`): the caller answers at once and
 * the job runs on its own, with its own timeout. In AWS the function names come from
 * JOB_FUNCTIONS; locally the gateway emulates the Invoke API and runs the job handler in-process.
 */
import { config } from '../lib/env';

export async function startJob(jobName: string, payload: unknown): Promise<void> {
  const functionName = config().jobFunctions[jobName];
  if (!functionName) throw new Error(`job ${jobName} is not bound to this function (JOB_FUNCTIONS)`);
  await invokeAsync(jobName, functionName, payload);
}

/**
 * Starts the running job again with `payload` (a job that resumes from what it recorded): the
 * local Invoke API's name locally, in AWS the function's own ARN from its context (a job is not
 * given its own name; its role may invoke itself: routes.ts `continues`).
 */
export async function continueJob(
  jobName: string,
  payload: unknown,
  context: { readonly invokedFunctionArn?: string } | undefined,
): Promise<void> {
  const functionName = config().jobFunctions[jobName] ?? context?.invokedFunctionArn;
  if (!functionName) throw new Error(`job ${jobName} cannot start itself again: no function name or ARN`);
  await invokeAsync(jobName, functionName, payload);
}

async function invokeAsync(jobName: string, functionName: string, payload: unknown): Promise<void> {
  // Lambda's client on first use: few routes start a job.
  const { lambda, InvokeCommand } = await import('../lib/clients/lambda');
  const out = await lambda().send(
    new InvokeCommand({ FunctionName: functionName, InvocationType: 'Event', Payload: JSON.stringify(payload) }),
  );
  if (out.StatusCode !== 202) throw new Error(`async invoke of ${jobName} answered ${String(out.StatusCode)}`);
}
