/**
 * The hook body validators are compiled on first use: each compiled validator costs megabytes, and a
 * controller whose registrations have no hook never validates a hook body.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Ajv } from 'ajv';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('hook body validators', () => {
  it('compile nothing when the module loads, then each schema once, on its first use', async () => {
    const compile = vi.spyOn(Ajv.prototype, 'compile');
    vi.resetModules();
    const schemas = await import('../src/schemas.ts');
    expect(compile).not.toHaveBeenCalled();

    expect(schemas.validateHookResponse({})).toBeUndefined();
    expect(schemas.validateHookResponse({ object: 'no' })).toBe('object must be object,null');
    expect(compile).toHaveBeenCalledTimes(1);

    schemas.validateHookErrorBody({ message: 'down' });
    expect(compile).toHaveBeenCalledTimes(2);
  });
});
