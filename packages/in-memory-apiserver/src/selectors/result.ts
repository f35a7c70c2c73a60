/** A parsed selector, or the message the API server answers when the selector is malformed. */
export type LabelMatcher = (labels: Record<string, string> | undefined) => boolean;
export type ParsedLabelSelector = { ok: true; matches: LabelMatcher } | { ok: false; message: string };

export type SelectableObject = { metadata?: { name?: string; namespace?: string } } & Record<string, unknown>;
export type ParsedFieldSelector =
  { ok: true; matches(object: SelectableObject): boolean } | { ok: false; message: string };
