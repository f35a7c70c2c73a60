import { describe, expect, it } from 'vitest';
import { standaloneValidators } from '../src/index.ts';

const source = { from: 'a test', command: 'none' };

describe('standaloneValidators', () => {
  it('writes one export per schema that validates without Ajv', async () => {
    const code = standaloneValidators({ named: { type: 'string', minLength: 1 } }, {}, source);
    expect(code).toMatch(/^\/\/ Generated from a test by `none`\./);
    const { named } = (await import(`data:text/javascript,${encodeURIComponent(code)}`)) as {
      named: ((value: unknown) => boolean) & { errors?: { message?: string }[] };
    };
    expect([named('x'), named('')]).toEqual([true, false]);
    expect(named.errors?.[0]?.message).toBe('must NOT have fewer than 1 characters');
  });

  it('refuses a length bound that UTF-16 units and code points count differently', () => {
    expect(() =>
      standaloneValidators(
        { name: { type: 'object', properties: { n: { type: 'string', maxLength: 63 } } } },
        {},
        source,
      ),
    ).toThrow("length bounds counted in UTF-16 units would differ from Ajv's: /name/properties/n/maxLength");
  });
});
