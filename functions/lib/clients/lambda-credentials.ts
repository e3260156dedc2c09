import { fromEnv } from '@aws-sdk/credential-provider-env';

/**
 * Stands in for `@aws-sdk/credential-provider-node` inside the Lambda bundles only (the esbuild
 * alias in lib/lambda-bundles.ts). Lambda hands a function its role's credentials in
 * AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN, so the default chain's other
 * sources (SSO, INI files, process, web identity, container and instance metadata) and the
 * STS/SSO clients they load are dead weight in every function's asset. Unbundled (tests, the
 * local gateway) the SDK's own default chain runs.
 */
export const defaultProvider = (_init?: unknown): ReturnType<typeof fromEnv> => fromEnv();
