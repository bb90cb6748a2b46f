/**
 * A resource method's call is typed by the endpoint it names (`APIResource.request`/`call`): the
 * body it sends and the answer it returns come from the endpoint table, so a method that calls the
 * wrong endpoint, sends the wrong body or forgets its path parameters does not compile.
 */
import type { GuardrailDeleteResponse, GuardrailUpdateResponse, LoginResponse } from '@iacm/sdk/contract';
import { describe, expectTypeOf, it } from 'vitest';
import type { APIPromise } from '../src/core/pagination.js';
import { APIResource } from '../src/resources/resource.js';

/** A resource whose methods call endpoints right and wrong. */
class Probe extends APIResource {
  login(): APIPromise<LoginResponse> {
    return this.request('auth.login', { body: { accessKey: 'a', secretKey: 's' } }, undefined);
  }

  update(ruleId: string): APIPromise<GuardrailUpdateResponse> {
    return this.request('guardrails.update', { params: { ruleId }, body: { isEnabled: false } }, undefined);
  }

  wrongEndpoint(ruleId: string): APIPromise<GuardrailUpdateResponse> {
    // @ts-expect-error guardrails.delete answers `{ status, message }`, not the updated rule
    return this.request('guardrails.delete', { params: { ruleId } }, undefined);
  }

  wrongBody(): APIPromise<LoginResponse> {
    // @ts-expect-error a login body holds `accessKey` and `secretKey`
    return this.request('auth.login', { body: { token: 't' } }, undefined);
  }

  missingBody(ruleId: string): APIPromise<GuardrailUpdateResponse> {
    // @ts-expect-error guardrails.update requires a body
    return this.request('guardrails.update', { params: { ruleId } }, undefined);
  }

  missingParams(): APIPromise<GuardrailDeleteResponse> {
    // @ts-expect-error guardrails.delete needs its ruleId
    return this.request('guardrails.delete', {}, undefined);
  }

  bodyWhereNone(ruleId: string): APIPromise<GuardrailDeleteResponse> {
    // @ts-expect-error guardrails.delete takes no body
    return this.request('guardrails.delete', { params: { ruleId }, body: {} }, undefined);
  }
}

describe('a resource call is typed by its endpoint', () => {
  it('answers what the endpoint answers', () => {
    expectTypeOf<ReturnType<Probe['update']>>().toEqualTypeOf<APIPromise<GuardrailUpdateResponse>>();
  });
});
