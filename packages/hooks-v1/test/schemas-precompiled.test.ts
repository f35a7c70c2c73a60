/**
 * The hook body validators are generated ahead of time (src/body-validators.generated.ts): nothing is
 * compiled when the module loads, nor at the first hook call. A compiled validator cost megabytes of
 * memory at start, or a delay of the first call.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Ajv } from 'ajv';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('hook body validators', () => {
  it('compile nothing, neither when the module loads nor when they are used', async () => {
    const compile = vi.spyOn(Ajv.prototype, 'compile');
    vi.resetModules();
    const schemas = await import('../src/schemas.ts');

    expect(schemas.validateHookResponse({})).toBeUndefined();
    expect(schemas.validateHookResponse({ object: 'no' })).toBe('object must be object,null');
    expect(schemas.validateHookErrorBody({ message: 'down' })).toBeUndefined();
    expect(schemas.validateHookRequest.string({ formFactor: '', phase: 'finalize', object: {} })).toBe(
      'formFactor must NOT have fewer than 1 characters',
    );
    expect(compile).not.toHaveBeenCalled();
  });
});
