import { lineSuite } from './suite.js';

// Node 22 (>= 22.12) with the current msw and vitest majors.
lineSuite({ node: 22, msw: 3, vitest: 5 });
