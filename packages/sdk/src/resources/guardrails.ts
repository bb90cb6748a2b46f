import type {
  GuardrailCreateBody,
  GuardrailCreated,
  GuardrailDeleteResponse,
  GuardrailField,
  GuardrailRule,
  GuardrailUpdateBody,
  GuardrailUpdateResponse,
} from '../contract/guardrails.js';
import { normalizeGuardrailCreateResponse } from '../contract/readers.js';
import type { RequestOptions } from '../core/options.js';
import { APIPromise, type PagePromise } from '../core/pagination.js';
import { requireString } from '../core/transport.js';
import { APIResource, bareArray } from './resource.js';
import type { GuardrailSearchParams, Projected } from './types.js';

/** Guardrail rules: `client.guardrails`. Reach it through an `IacmClient`.
 * @hideconstructor
 */
export class Guardrails extends APIResource {
  /**
   * Lists guardrail rules (`POST /v2/guardrails/search`). There is no get-by-id: filter instead.
   * @example
   * const costRules = await client.guardrails.search({ filters: { type: ['cost'] } });
   */
  search<const P extends ReadonlyArray<GuardrailField> | undefined = undefined>(
    params?: GuardrailSearchParams<P>,
    options?: RequestOptions,
  ): PagePromise<Array<Projected<GuardrailRule, P>>, Projected<GuardrailRule, P>> {
    return this.paged(
      'guardrails.search',
      params,
      undefined,
      bareArray<Projected<GuardrailRule, P>>,
      options,
    );
  }

  /**
   * Creates a rule and its notification configuration (`POST /v2/guardrails`). Not retried on
   * failure (a retry could create the rule twice) unless `options.idempotent` is set. The answer is
   * read in either published form and returned as `{ ruleId, notificationId }`.
   */
  create(body: GuardrailCreateBody, options?: RequestOptions): APIPromise<GuardrailCreated> {
    return new APIPromise(async () => {
      const result = await this.call('guardrails.create', { body }, options);
      return { ...result, data: normalizeGuardrailCreateResponse(result.data) };
    });
  }

  /**
   * Updates a rule (`PATCH /v2/guardrails/{ruleId}`): the members given replace the stored ones.
   * @returns `{ id, name, enabled, updatedAt }`.
   */
  update(
    ruleId: string,
    body: GuardrailUpdateBody,
    options?: RequestOptions,
  ): APIPromise<GuardrailUpdateResponse> {
    return this.request(
      'guardrails.update',
      { params: { ruleId: requireString(ruleId, 'ruleId') }, body },
      options,
    );
  }

  /**
   * Deletes a rule and its notification configuration (`DELETE /v2/guardrails/{ruleId}`).
   * @returns `{ status, message }`.
   */
  delete(ruleId: string, options?: RequestOptions): APIPromise<GuardrailDeleteResponse> {
    return this.request(
      'guardrails.delete',
      { params: { ruleId: requireString(ruleId, 'ruleId') } },
      options,
    );
  }
}
