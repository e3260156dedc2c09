import { fromEnv } from '@aws-sdk/credential-provider-env';

/**
 * Stands in for `@aws-sdk/credential-provider-node` inside Lambda bundles only (esbuild alias in
 * lib/lambda-bundles.ts). Lambda always hands a function its role's credentials in
 * AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY / AWS_SESSION_TOKEN, so the default chain's other
 * sources (SSO, shared INI files, process, web identity, container and instance metadata) and
 * the STS/SSO clients they bundle are dead weight there: about 100 KB per function.
 * Locally the handlers run unbundled with the SDK's real default chain.
 */
export const defaultProvider = (_init?: unknown): ReturnType<typeof fromEnv> => fromEnv();
