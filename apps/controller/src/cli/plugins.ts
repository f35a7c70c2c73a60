/** The form factors of a process: the built-ins plus the plugins named by module specifier. */
import { loadFormFactorPlugin, type FormFactorPlugin, type FormFactorRegistry } from '@scoby/formfactor';
import { builtInFormFactors } from '../process/built-in-form-factors.ts';

export type PluginsLoad =
  { ok: true; plugins: FormFactorPlugin[]; registry: FormFactorRegistry } | { ok: false; message: string };

/** Relative specifiers are taken from `cwd`; the first failure is reported. */
export async function loadFormFactors(specifiers: readonly string[], cwd: string): Promise<PluginsLoad> {
  const plugins: FormFactorPlugin[] = [];
  for (const specifier of specifiers) {
    const loaded = await loadFormFactorPlugin(specifier, cwd);
    if (!loaded.ok) return { ok: false, message: loaded.message };
    plugins.push(loaded.plugin);
  }
  try {
    return { ok: true, plugins, registry: builtInFormFactors(plugins) };
  } catch (error) {
    return { ok: false, message: (error as Error).message };
  }
}
