import { describe, expect, it } from 'vitest';
import { apiErrorMessage } from '../src/api-message.ts';

describe('apiErrorMessage', () => {
  it('takes the message of a Status body', () => {
    const body = {
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      message: 'services "collector" not found',
      code: 404,
    };
    expect(apiErrorMessage({ status: 404, body })).toBe('services "collector" not found');
  });

  it('takes a plain-text body', () => {
    expect(apiErrorMessage({ status: 403, body: 'Forbidden\n' })).toBe('Forbidden');
  });

  it('names the HTTP status when the body says nothing', () => {
    expect(apiErrorMessage({ status: 503, body: '' })).toBe('the API server answered HTTP 503');
    expect(apiErrorMessage({ status: 500, body: { kind: 'Status', message: '' } })).toBe(
      'the API server answered HTTP 500',
    );
  });
});
