/**
 * The API error table (status <-> code <-> class) and the SDK's mapping of an error answer's status
 * to its error class, which reads that table.
 */
import * as sdk from '@iacm/sdk';
import { API_ERRORS, codeOfStatus, ERROR_CODES, errorClassOfStatus, statusOfCode } from '@iacm/sdk/contract';
import { describe, expect, it } from 'vitest';
import { errorClassFor } from '../src/core/answer-error.js';
import { ERROR_CLASSES } from '../src/core/errors.js';

describe('the API error table', () => {
  it('gives every error code a status, and only error codes', () => {
    expect(Object.keys(API_ERRORS).sort()).toEqual([...ERROR_CODES].sort());
    for (const code of ERROR_CODES) expect(statusOfCode(code)).toBe(API_ERRORS[code].status);
    expect(statusOfCode('no_such_code')).toBeUndefined();
    expect(statusOfCode('toString')).toBeUndefined();
  });

  it('gives the codes of one status one class, each exported by @iacm/sdk', () => {
    for (const code of ERROR_CODES) {
      const { status, errorClass } = API_ERRORS[code];
      expect(errorClassOfStatus(status), code).toBe(errorClass);
      expect(typeof (sdk as Record<string, unknown>)[errorClass], errorClass).toBe('function');
    }
  });

  it("names each status's general code", () => {
    expect(codeOfStatus(400)).toBe('validation_failed');
    expect(codeOfStatus(401)).toBe('unauthorized');
    expect(codeOfStatus(404)).toBe('not_found');
    expect(codeOfStatus(429)).toBe('rate_limited');
    expect(codeOfStatus(503)).toBe('service_unavailable');
    expect(codeOfStatus(418)).toBeUndefined();
  });
});

describe('status to error class', () => {
  it.each([
    [400, sdk.BadRequestError],
    [401, sdk.AuthenticationError],
    [403, sdk.PermissionDeniedError],
    [404, sdk.NotFoundError],
    [405, sdk.APIError],
    [408, sdk.APIError],
    [409, sdk.ConflictError],
    [413, sdk.APIError],
    [415, sdk.APIError],
    [418, sdk.APIError],
    [422, sdk.UnprocessableEntityError],
    [429, sdk.RateLimitError],
    [500, sdk.InternalServerError],
    [502, sdk.InternalServerError],
    [503, sdk.InternalServerError],
    [599, sdk.InternalServerError],
  ])('status %i', (status, errorClass) => {
    expect(errorClassFor(status, ERROR_CLASSES)).toBe(errorClass);
  });
});
