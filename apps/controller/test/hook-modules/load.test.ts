/** Loading the hook modules an operator allowed, and what a registration naming one resolves to (docs/spec/hooks-v1.md §10.1–§10.2). */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { moduleHookTarget, resolveHookTarget } from '../../src/hook-modules/hook-target.ts';
import { loadedHandlers, loadHookModules } from '../../src/hook-modules/load.ts';

async function moduleFiles(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'scoby-hook-modules-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}

describe('loadHookModules', () => {
  it('loads each allowed module by the name given, and reports each that cannot serve as a hook', async () => {
    const dir = await moduleFiles({
      'good.mjs': 'export default { preReconcile: () => undefined };',
      'finalize-only.mjs': 'export default { async finalize() {} };',
      'named.mjs': 'export const preReconcile = () => undefined;',
      'wrong.mjs': 'export default { preReconcile: "yes" };',
      'empty.mjs': 'export default {};',
      'number.mjs': 'export default 42;',
    });
    const names = [
      './good.mjs',
      './finalize-only.mjs',
      './named.mjs',
      './wrong.mjs',
      './empty.mjs',
      './number.mjs',
      './missing.mjs',
    ];
    const modules = await loadHookModules(names, dir);
    expect([...modules.keys()]).toEqual(names);
    expect(modules.get('./good.mjs')?.ok).toBe(true);
    expect(modules.get('./finalize-only.mjs')?.ok).toBe(true);
    expect(modules.get('./named.mjs')).toEqual({
      ok: false,
      message: 'hook module "./named.mjs": the module has no default export',
    });
    expect(modules.get('./wrong.mjs')).toEqual({
      ok: false,
      message: 'hook module "./wrong.mjs": default export preReconcile must be a function',
    });
    expect(modules.get('./empty.mjs')).toEqual({
      ok: false,
      message: 'hook module "./empty.mjs": default export has neither preReconcile nor finalize',
    });
    expect(modules.get('./number.mjs')).toEqual({
      ok: false,
      message: 'hook module "./number.mjs": default export is not an object of hook handlers',
    });
    expect(modules.get('./missing.mjs')).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^hook module "\.\/missing\.mjs": cannot be imported: /),
    });
    expect([...loadedHandlers(modules).keys()]).toEqual(['./good.mjs', './finalize-only.mjs']);
  });
});

describe('the hook target of a registration', () => {
  const handlers = { preReconcile: () => undefined };
  const modules = new Map([
    ['@acme/mailer-hook', { ok: true as const, handlers }],
    [
      './quota.mjs',
      { ok: false as const, message: 'hook module "./quota.mjs": the module has no default export' },
    ],
  ]);

  it('is module:<name> for an allowed, loaded module', () => {
    expect(moduleHookTarget('@acme/mailer-hook', modules)).toEqual({
      ok: true,
      url: 'module:@acme/mailer-hook',
    });
  });

  it('names the allowed modules, or none, when the module is not allowed', () => {
    expect(moduleHookTarget('@acme/other', modules)).toEqual({
      ok: false,
      reason: 'HookModuleNotAllowed',
      message:
        'hook module "@acme/other" is not allowed: the controller allows "@acme/mailer-hook", "./quota.mjs" (--hook-module, SCOBY_HOOK_MODULES)',
    });
    expect(moduleHookTarget('@acme/other', new Map())).toMatchObject({
      message:
        'hook module "@acme/other" is not allowed: the controller allows none (--hook-module, SCOBY_HOOK_MODULES)',
    });
  });

  it('carries the load failure of an allowed module', () => {
    expect(moduleHookTarget('./quota.mjs', modules)).toEqual({
      ok: false,
      reason: 'HookModuleNotLoaded',
      message: 'hook module "./quota.mjs": the module has no default export',
    });
  });

  it('resolves an address as before, its failure being HOOKFAILED', async () => {
    const hook = {
      version: 'v1' as const,
      timeoutMs: 1000,
      capabilities: [],
      failurePolicy: 'Fail' as const,
    };
    const resolved = await resolveHookTarget(
      { ...hook, address: { uri: 'http://h/' } },
      async (address) => ({ ok: true, url: String(address.uri) }),
      modules,
    );
    expect(resolved).toEqual({ ok: true, url: 'http://h/' });
    const failed = await resolveHookTarget(
      { ...hook, address: { uri: 'http://h/' } },
      async () => ({ ok: false, message: 'services "h" not found' }),
      modules,
    );
    expect(failed).toEqual({ ok: false, reason: 'HOOKFAILED', message: 'services "h" not found' });
  });
});
