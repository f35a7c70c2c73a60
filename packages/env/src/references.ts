import type { ParsedPath } from '@scoby/registration';
import { valueAt } from './spec-path.ts';

/**
 * Reads the string a configuration field stands for, or records an error and returns undefined.
 * `field` names the configuration field in messages, e.g. `valueFrom.secretPath.name`.
 */
export type ReferenceReader = (written: string, field: string) => string | undefined;

/** Literal configuration values (add.toVolume, docs/spec/env.md §6.7): used as written. */
export const readLiteral: ReferenceReader = (written) => written;

/**
 * Spec-path references of the instruction at `owner` (docs/spec/env.md §6.3, §6.5): each MUST be present and hold
 * a non-empty string.
 */
export function specReferenceReader(
  spec: Record<string, unknown>,
  references: ReadonlyMap<string, ParsedPath>,
  owner: string,
  errors: string[],
): ReferenceReader {
  return (written, field) => {
    const parsed = references.get(written);
    if (parsed === undefined || !parsed.ok) {
      errors.push(`${owner}: ${field}: ${parsed?.message ?? `invalid path "${written}"`}`);
      return undefined;
    }
    const value = valueAt(spec, parsed.segments);
    const problem =
      value === undefined
        ? `no value at "${parsed.normalized}"`
        : typeof value !== 'string'
          ? `value at "${parsed.normalized}" is not a string`
          : value === ''
            ? `value at "${parsed.normalized}" is empty`
            : undefined;
    if (problem === undefined) return value as string;
    errors.push(`${owner}: ${field}: ${problem}`);
    return undefined;
  };
}
