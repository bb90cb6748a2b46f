import { endpoints } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../src/errors.js';
import { errorResponse, successResponse } from '../../src/pipeline/respond.js';

describe('respond stage', () => {
  it('answers an HttpError with the one error body, its issues and headers', () => {
    const error = new HttpError(429, 'rate_limited', 'slow down', { headers: { 'retry-after': '3' } });
    expect(errorResponse(error, 'req_1')).toEqual({
      status: 429,
      headers: { 'content-type': 'application/json', 'retry-after': '3' },
      body: { status: 429, code: 'rate_limited', message: 'slow down', requestId: 'req_1' },
    });
  });

  it('answers any other error with 500 and none of its details', () => {
    const res = errorResponse(new Error('secret detail'), 'req_2');
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).not.toContain('secret detail');
  });

  it('answers 200 with JSON, or 204 without a body for an endpoint whose success is 204', () => {
    expect(successResponse({ ...endpoints['auth.login'], name: 'auth.login' }, { a: 1 })).toEqual({
      status: 200,
      headers: { 'content-type': 'application/json' },
      body: { a: 1 },
    });
    const noContent = { ...endpoints.health, name: 'health', successStatus: 204 } as const;
    expect(successResponse(noContent, undefined)).toEqual({ status: 204, headers: {}, body: undefined });
  });
});
