import { lineSuite } from './suite.js';

// Node 24 with the current msw and vitest majors; the TypeScript consumers compile against msw 3's
// types. Jest 30 loads ESM-only packages (msw 3) through require() on Node >= 24.9 only.
lineSuite({ node: 24, msw: 3, vitest: 5, jest: 30, types: true });
