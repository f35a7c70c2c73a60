/**
 * Kubernetes expands `$(NAME)` in an env `value` to another variable of the container, so a value
 * taken from an instance's spec could copy a Secret-backed variable (docs/spec/env.md §4, "Literal values").
 * `$$` is Kubernetes' escape for a literal `$`: doubling every `$` makes the process see the value
 * exactly as the spec holds it.
 */
export function literalValue(value: string): string {
  return value.includes('$') ? value.replaceAll('$', () => '$$') : value;
}
