import type { LoginBody, LoginResponse } from '../contract/auth.js';
import type { RequestOptions } from '../core/options.js';
import type { APIPromise } from '../core/pagination.js';
import { APIResource } from './resource.js';

/** Authentication: `client.auth`. Reach it through an `IacmClient`.
 * @hideconstructor
 */
export class Auth extends APIResource {
  /**
   * Exchanges a key pair for a bearer token (`POST /v2/login`). A client configured with
   * `{ accessKey, secretKey }` does this itself; call it to manage tokens yourself.
   * @returns `{ accessToken, expiresAt (epoch seconds), tokenType }`.
   */
  login(body: LoginBody, options?: RequestOptions): APIPromise<LoginResponse> {
    return this.request('auth.login', { body }, options);
  }
}
