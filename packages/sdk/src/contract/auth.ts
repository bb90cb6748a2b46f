import { z } from 'zod';

/** The body of `POST /v2/login`: an access key and its secret key. */
export const LoginBody = z.strictObject({
  accessKey: z.string().min(1, { error: 'expected a non-empty access key' }).max(512),
  secretKey: z.string().min(1, { error: 'expected a non-empty secret key' }).max(512),
});
/** The body of the login endpoint. */
export type LoginBody = z.input<typeof LoginBody>;

/**
 * The answer of `POST /v2/login`: a bearer token and when it expires, in Unix epoch **seconds**.
 */
export const LoginResponse = z.looseObject({
  accessToken: z.string().min(1),
  expiresAt: z.number().int().min(0).meta({ description: 'Unix epoch seconds.' }),
  tokenType: z.string(),
});
/** The answer of the login endpoint. */
export type LoginResponse = z.infer<typeof LoginResponse>;

/** The answer of `GET /v2/health`: status 204 and no body. */
export const HealthResponse = z.undefined();
/** The answer of the health endpoint (no body). */
export type HealthResponse = z.infer<typeof HealthResponse>;
