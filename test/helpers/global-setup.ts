/**
 * Global setup of the integration and e2e projects: the emulators once per project, and for
 * e2e the production build of the app once per run (cached by its sources' hash). Each test file
 * reads them with inject() and makes its own namespace on them (./shared-stack.ts).
 */
import type { TestProject } from 'vitest/node';
import { startSharedEmulators } from './shared-stack';
import { ensureWebBuild } from './web-build';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const [shared, webDist] = await Promise.all([
    startSharedEmulators(),
    project.name === 'e2e' ? ensureWebBuild() : Promise.resolve(undefined),
  ]);
  project.provide('sharedEmulators', shared.emulators);
  if (webDist) project.provide('webDist', webDist);
  return () => shared.stop();
}
