import { afterEach, beforeEach, expect } from 'vitest';

/**
 * Unit project setup: a test that writes to console.error or console.warn fails. React reports
 * its development warnings there (a missing key, an update outside act, an invalid DOM
 * property), and the views render with React's development build here, so a view test catches
 * them; nothing else in the code under test logs through the console. A test that expects such
 * output replaces the method itself (vi.spyOn), which this guard then does not see.
 */
const logged: string[] = [];
const original = { error: console.error, warn: console.warn };

beforeEach(() => {
  logged.length = 0;
  console.error = (...args: unknown[]) => {
    logged.push(`console.error: ${args.map(String).join(' ')}`);
    original.error(...args);
  };
  console.warn = (...args: unknown[]) => {
    logged.push(`console.warn: ${args.map(String).join(' ')}`);
    original.warn(...args);
  };
});

afterEach(() => {
  console.error = original.error;
  console.warn = original.warn;
  expect(logged, 'console errors and warnings during the test').toEqual([]);
});
