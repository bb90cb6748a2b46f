import * as z from 'zod/mini';
import { count } from './formats.js';
import { looseObject, strictObject, withMeta } from './zod.js';

/** The body of `POST /v2/login`: an access key and its secret key. */
export const LoginBody = strictObject({
  accessKey: z
    .string()
    .check(z.minLength(1, { error: 'expected a non-empty access key' }))
    .check(z.maxLength(512)),
  secretKey: z
    .string()
    .check(z.minLength(1, { error: 'expected a non-empty secret key' }))
    .check(z.maxLength(512)),
});
/** The body of the login endpoint: an access key and its secret key. */
export interface LoginBody {
  /** The access key (1 to 512 characters). */
  accessKey: string;
  /** The secret key (1 to 512 characters). */
  secretKey: string;
}

/**
 * The answer of `POST /v2/login`: a bearer token and when it expires, in Unix epoch **seconds**.
 */
export const LoginResponse = looseObject({
  accessToken: z.string().check(z.minLength(1)),
  expiresAt: withMeta(count(), { description: 'Unix epoch seconds.' }),
  tokenType: z.string(),
});
/** The answer of the login endpoint: a bearer token and when it expires. */
export interface LoginResponse {
  /** The bearer token. */
  accessToken: string;
  /** When the token expires, Unix epoch **seconds**. */
  expiresAt: number;
  /** The token's type (`Bearer`). */
  tokenType: string;
}

/** The answer of `GET /v2/health`: status 204 and no body. */
export const HealthResponse = z.undefined();
/** The answer of the health endpoint (no body). */
export type HealthResponse = undefined;
