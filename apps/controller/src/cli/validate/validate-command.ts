/**
 * `scoby validate FILE...`: checks CRDRegistrations before they are applied. Exit 0 when every one is
 * valid, 1 with one line per problem on stderr (`<file>: <path>: <message>`, the registration named
 * after the file when the files hold several), 1 with `error: <message>` when a file cannot be used.
 */
import { KIND } from '@scoby/registration';
import { loadConfig } from '../../config/index.ts';
import { DEFAULT_RENDER_NAMESPACE } from '../defaults.ts';
import type { KubeObject } from '@scoby/kube-objects';
import { readAllObjects, readObjects } from '../documents.ts';
import type { CliIo } from '../io.ts';
import { loadFormFactors } from '../plugins.ts';
import { problemLines, registrationProblems } from './registration-problems.ts';

export interface ValidateOptions {
  crd?: string[];
  formFactorPlugin?: string[];
}

export async function runValidate(
  files: readonly string[],
  options: ValidateOptions,
  io: CliIo,
): Promise<number> {
  const fail = (message: string) => {
    io.stderr(`error: ${message}\n`);
    return 1;
  };
  const settings = loadConfig(
    { ...(options.formFactorPlugin ? { formFactorPlugin: options.formFactorPlugin } : {}) },
    { ...io.env, SCOBY_NAMESPACE: io.env.SCOBY_NAMESPACE ?? DEFAULT_RENDER_NAMESPACE },
  );
  if (!settings.ok) return fail(settings.errors.map((error) => error.message).join('; '));
  const formFactors = await loadFormFactors(settings.config.formFactorPlugins, io.cwd);
  if (!formFactors.ok) return fail(formFactors.message);
  const registrations: { file: string; registration: KubeObject }[] = [];
  for (const file of files) {
    const read = await readObjects(file, io.cwd);
    if (!read.ok) return fail(read.message);
    for (const object of read.objects)
      if (object.kind === KIND) registrations.push({ file, registration: object });
  }
  const crds = options.crd === undefined ? undefined : await readAllObjects(options.crd, io.cwd);
  if (crds && !crds.ok) return fail(crds.message);
  if (registrations.length === 0) return fail(`no ${KIND} in ${files.join(', ')}`);

  let invalid = 0;
  for (const { file, registration } of registrations) {
    const name = registration.metadata.name ?? '';
    const lines = problemLines(registrationProblems(registration, formFactors.registry, crds?.objects));
    const prefix = `${file}: ${registrations.length > 1 ? `${KIND} "${name}": ` : ''}`;
    if (lines.length === 0) io.stdout(`${KIND} "${name}" is valid\n`);
    else invalid++;
    for (const line of lines) io.stderr(`${prefix}${line}\n`);
  }
  return invalid === 0 ? 0 : 1;
}
