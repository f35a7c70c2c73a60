import { describe, expect, it } from 'vitest';
import { optionsFromEnv } from '../src/index.ts';

describe('optionsFromEnv', () => {
  it("defaults to port 8081, beside the ops server's 8080, and the string formFactor format", () => {
    expect(optionsFromEnv({})).toEqual({ ok: true, options: { port: 8081, formFactorFormat: 'string' } });
    expect(optionsFromEnv({ PORT: '', HOST: '' })).toEqual({
      ok: true,
      options: { port: 8081, formFactorFormat: 'string' },
    });
  });

  it('reads every setting', () => {
    const env = {
      PORT: '0',
      HOST: '0.0.0.0',
      HOOK_PATH: '/v1',
      EXAMPLE_HOOK_ENV_NAME: 'HOOKED',
      EXAMPLE_HOOK_ENV_VALUE: 'yes',
      EXAMPLE_HOOK_CONDITION_TYPE: 'QuotaChecked',
      FINALIZE_WHEN_CONDITION: 'CleanedUp',
      SCOBY_HOOK_FORM_FACTOR_FORMAT: 'object',
    };
    expect(optionsFromEnv(env)).toEqual({
      ok: true,
      options: {
        port: 0,
        host: '0.0.0.0',
        path: '/v1',
        envName: 'HOOKED',
        envValue: 'yes',
        conditionType: 'QuotaChecked',
        finalizeWhenCondition: 'CleanedUp',
        formFactorFormat: 'object',
      },
    });
  });

  it.each([['http'], ['-1'], ['65536'], ['80.5']])('refuses PORT=%s', (port) => {
    expect(optionsFromEnv({ PORT: port })).toEqual({
      ok: false,
      message: `PORT: "${port}" is not a port number (0 to 65535)`,
    });
  });

  it('refuses an unknown formFactor format', () => {
    expect(optionsFromEnv({ SCOBY_HOOK_FORM_FACTOR_FORMAT: 'yaml' })).toEqual({
      ok: false,
      message: 'SCOBY_HOOK_FORM_FACTOR_FORMAT: "yaml" is neither "string" nor "object"',
    });
  });
});
