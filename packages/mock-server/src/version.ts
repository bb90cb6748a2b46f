/** The version of `@iacm/mock-server`. */
export const VERSION = '0.2.0';
