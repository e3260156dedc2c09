import { defineConfig } from 'vitest/config';
import { fileURLToPath } from 'node:url';

const alias = {
  '@domain': fileURLToPath(new URL('./functions/domain', import.meta.url)),
  '@': fileURLToPath(new URL('./frontend/src', import.meta.url)),
};

// One runner, four levels (conventions §10). Integration and e2e start real emulators and
// Chromium, so they run one file at a time to stay within a 2-core machine.
export default defineConfig({
  resolve: { alias },
  test: {
    reporters: ['default', './test/helpers/summary-reporter.ts'],
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', LOG_LEVEL: 'silent' },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.{ts,tsx}'], environment: 'node' },
      },
      {
        extends: true,
        test: { name: 'infra', include: ['test/infra/**/*.test.ts'], testTimeout: 180_000, hookTimeout: 180_000, fileParallelism: false },
      },
      {
        extends: true,
        test: { name: 'integration', include: ['test/integration/**/*.test.ts'], testTimeout: 60_000, hookTimeout: 120_000, fileParallelism: false },
      },
      {
        extends: true,
        test: { name: 'e2e', include: ['test/e2e/**/*.test.ts'], testTimeout: 90_000, hookTimeout: 180_000, fileParallelism: false },
      },
    ],
  },
});
