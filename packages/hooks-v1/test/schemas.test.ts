import { describe, expect, it } from 'vitest';
import {
  buildRequestBody,
  validateHookErrorBody,
  validateHookRequest,
  validateHookResponse,
} from '../src/index.ts';
import { finalizeCall, preReconcileCall } from './support/fixtures.ts';

describe('request schema (§3)', () => {
  it('accepts what the client sends, in either formFactor form', () => {
    expect(
      validateHookRequest.string(buildRequestBody(preReconcileCall('http://h/'), 'string')),
    ).toBeUndefined();
    expect(validateHookRequest.object(buildRequestBody(finalizeCall('http://h/'), 'object'))).toBeUndefined();
    expect(validateHookRequest.string(buildRequestBody(finalizeCall('http://h/'), 'object'))).toBe(
      'formFactor must be string',
    );
    expect(validateHookRequest.object({ formFactor: {}, phase: 'finalize', object: {} })).toBe(
      'formFactor.name is required',
    );
  });
});

describe('buildRequestBody', () => {
  it('drops children in finalize even when given', () => {
    const call = { ...finalizeCall('http://h/'), children: {} };
    expect(Object.keys(buildRequestBody(call, 'string'))).toEqual(['formFactor', 'phase', 'object']);
  });
});

describe('response schema (§5)', () => {
  it.each([
    [null],
    [{}],
    [{ object: null, children: null }],
    [{ object: { status: {} }, children: { a: { apiVersion: 'v1', kind: 'S', metadata: {} } } }],
  ])('accepts %j', (body) => {
    expect(validateHookResponse(body)).toBeUndefined();
  });

  it.each([
    [[], 'body must be object,null'],
    [{ object: [] }, 'object must be object,null'],
    [{ object: { status: 1 } }, 'object.status must be object'],
    [{ children: { a: { kind: 'S', metadata: {} } } }, 'children.a.apiVersion is required'],
  ])('rejects %j', (body, problem) => {
    expect(validateHookResponse(body)).toBe(problem);
  });
});

describe('error body schema (§6.1)', () => {
  it('describes the documented fields', () => {
    expect(validateHookErrorBody({ message: 'm', permanent: true, continue: false })).toBeUndefined();
    expect(validateHookErrorBody({ message: 'm', permanent: 'yes' })).toBe('permanent must be boolean');
  });
});
