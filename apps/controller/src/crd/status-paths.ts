/**
 * Whether a status schema admits a statusConfiguration.add path (docs/spec/children-and-status.md §7.2): each
 * segment is a declared property, or its parent preserves unknown fields or has additionalProperties;
 * a typed leaf must be a string.
 */
type Schema = Record<string, unknown>;

function asSchema(value: unknown): Schema | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Schema) : undefined;
}

export function statusPathAllowed(statusSchema: Schema | undefined, segments: readonly string[]): boolean {
  let node = statusSchema;
  for (const segment of segments) {
    if (!node) return false;
    const declared = asSchema(asSchema(node.properties)?.[segment]);
    if (declared) {
      node = declared;
      continue;
    }
    if (node['x-kubernetes-preserve-unknown-fields'] === true) return true;
    const additional = node.additionalProperties;
    if (additional === true) return true;
    node = asSchema(additional);
    if (!node) return false;
  }
  return node?.type === undefined || node.type === 'string';
}
