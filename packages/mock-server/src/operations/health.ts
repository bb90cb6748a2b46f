/**
 * `GET /v2/health`: the service's own check (204), outside the five API groups.
 *
 * @module
 */
import type { Operations } from './operation.js';

/** The operations of the health group, one per endpoint. */
export const healthOperations = {
  health: () => undefined,
} satisfies Operations<'health'>;
