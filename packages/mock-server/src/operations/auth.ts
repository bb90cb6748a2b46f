/**
 * The auth group: `POST /v2/login`, a key pair for a bearer token (issued by the core's login).
 *
 * @module
 */
import { HttpError } from '../errors.js';
import type { Operations } from './operation.js';

/** The operations of the auth group, one per endpoint. */
export const authOperations = {
  'auth.login': async (ctx) => {
    const { body } = ctx;
    try {
      return await ctx.services.login(body.accessKey, body.secretKey);
    } catch (error) {
      if (!(error instanceof HttpError) || error.code !== 'invalid_credentials') throw error;
      // Say where the valid pairs are; never echo the keys sent.
      throw new HttpError(
        401,
        'invalid_credentials',
        'the access key and secret key do not match any account of this mock; its key pairs are ' +
          'listed by GET /__mock/accounts (mock.control.accounts() in-process), and iacm-mock prints ' +
          'the primary pair when it starts',
      );
    }
  },
} satisfies Operations<'auth'>;
