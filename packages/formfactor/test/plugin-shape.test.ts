import { describe, expect, it } from 'vitest';
import { checkPluginShape } from '../src/index.ts';
import { fakePlugin } from './fake-plugins.ts';

describe('checkPluginShape', () => {
  it('accepts a complete plugin, with or without the optional fields', () => {
    const plugin = fakePlugin('queue');
    expect(checkPluginShape(plugin)).toStrictEqual({ ok: true, plugin });
    const full = fakePlugin('queue', {
      hookName: 'queue',
      fieldMessages: { size: 'must be positive' },
      conditionTypesFor: () => [],
    });
    expect(checkPluginShape(full)).toStrictEqual({ ok: true, plugin: full });
  });

  it('checks the optional fields when present', () => {
    const candidate = {
      ...fakePlugin('queue'),
      hookName: '',
      fieldMessages: { size: 1 },
      conditionTypesFor: ['QueueReady'],
    };
    expect(checkPluginShape(candidate)).toStrictEqual({
      ok: false,
      defects: [
        'has invalid "hookName" (non-empty string)',
        'has invalid "fieldMessages" (object of strings)',
        'has invalid "conditionTypesFor" (function)',
      ],
    });
  });

  it('refuses an empty name, a schema that is not an object and non-string condition types', () => {
    const candidate = {
      ...fakePlugin('queue'),
      name: '',
      blockSchema: true,
      conditionTypes: ['QueueReady', 3],
    };
    expect(checkPluginShape(candidate)).toStrictEqual({
      ok: false,
      defects: [
        'has invalid "name" (non-empty string)',
        'has invalid "blockSchema" (JSON Schema object)',
        'has invalid "conditionTypes" (array of strings)',
      ],
    });
  });

  it.each([null, [], 'plugin'])('refuses %j as not an object', (candidate) => {
    expect(checkPluginShape(candidate)).toStrictEqual({ ok: false, defects: ['is not an object'] });
  });
});
