/** What the example hook can be told, and how its command line reads that from the environment. */
import type { FormFactorFormat } from '@scoby/hooks-v1/sdk';
import type { RequestLogLine } from './request-log.ts';

export interface ExampleHookOptions {
  /** Default 0 in-process (a free port); the command defaults to 8081 (8080 is the default of Scoby's ops server). */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default '/'. */
  path?: string;
  /** The variable added to the adapter container; default EXAMPLE_HOOK=on. */
  envName?: string;
  envValue?: string;
  /** The condition the hook sets True/HookOK; declare it in conditionsFromHook. Default HookChecked. */
  conditionType?: string;
  /** Finalize waits until this condition is True; unset: finalize accepts at once. */
  finalizeWhenCondition?: string;
  formFactorFormat?: FormFactorFormat;
  /** Told of every call once answered; the command prints each as a JSON line. Default: nothing. */
  logRequest?: (line: RequestLogLine) => void;
}

export const DEFAULT_PORT = 8081;

export type OptionsReading = { ok: true; options: ExampleHookOptions } | { ok: false; message: string };

/** PORT, HOST, HOOK_PATH, EXAMPLE_HOOK_ENV_NAME, EXAMPLE_HOOK_ENV_VALUE, EXAMPLE_HOOK_CONDITION_TYPE,
 * FINALIZE_WHEN_CONDITION and SCOBY_HOOK_FORM_FACTOR_FORMAT; empty values count as unset. */
export function optionsFromEnv(env: Record<string, string | undefined>): OptionsReading {
  const value = (name: string): string | undefined => (env[name] === '' ? undefined : env[name]);
  const port = value('PORT') ?? String(DEFAULT_PORT);
  if (!/^\d+$/.test(port) || Number(port) > 65535) {
    return { ok: false, message: `PORT: ${JSON.stringify(port)} is not a port number (0 to 65535)` };
  }
  const format = value('SCOBY_HOOK_FORM_FACTOR_FORMAT') ?? 'string';
  if (format !== 'string' && format !== 'object') {
    return {
      ok: false,
      message: `SCOBY_HOOK_FORM_FACTOR_FORMAT: ${JSON.stringify(format)} is neither "string" nor "object"`,
    };
  }
  const options: ExampleHookOptions = { port: Number(port), formFactorFormat: format };
  const optional = {
    host: value('HOST'),
    path: value('HOOK_PATH'),
    envName: value('EXAMPLE_HOOK_ENV_NAME'),
    envValue: value('EXAMPLE_HOOK_ENV_VALUE'),
    conditionType: value('EXAMPLE_HOOK_CONDITION_TYPE'),
    finalizeWhenCondition: value('FINALIZE_WHEN_CONDITION'),
  };
  for (const [key, setting] of Object.entries(optional)) {
    if (setting !== undefined) Object.assign(options, { [key]: setting });
  }
  return { ok: true, options };
}
