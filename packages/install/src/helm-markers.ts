/**
 * Turns a plain object into Helm template text: chosen values are replaced by markers before the
 * object is serialised as YAML, then each marker by its template expression. Inline markers stand for
 * a scalar (`replicas: {{ .Values.replicas }}`); block markers for a whole value or list items, written
 * at the marker's indentation (`resources:` + `{{- toYaml .Values.resources | nindent 12 }}`).
 */
import { isDocument, stringify } from 'yaml';

type Block = (indent: number) => string[];

export class HelmMarkers {
  readonly #inline: string[] = [];
  readonly #blocks: Block[] = [];

  /** A scalar written as `expression`. */
  inline(expression: string): string {
    this.#inline.push(expression);
    return `HELM_INLINE_${this.#inline.length - 1}_`;
  }

  /** Template lines for a value (after `key:`, `indent` is the column of that value), for list items
   *  (as `- marker`, `indent` is the column of the dash) or for keys of the map (under KEYLESS). */
  block(lines: Block): string {
    this.#blocks.push(lines);
    return `HELM_BLOCK_${this.#blocks.length - 1}_`;
  }

  render(object: unknown): string {
    const options = { lineWidth: 0, aliasDuplicateObjects: false };
    const yaml = isDocument(object) ? object.toString(options) : stringify(object, options);
    return yaml
      .split('\n')
      .flatMap((line) => this.#expandBlock(line))
      .map((line) => line.replace(/HELM_INLINE_(\d+)_/g, (_, index: string) => this.#inline[Number(index)]!))
      .join('\n');
  }

  #expandBlock(line: string): string[] {
    const match = /^( *)(- )?([^:]+: )?HELM_BLOCK_(\d+)_$/.exec(line);
    if (match === null) return [line];
    const [, indent = '', dash, key, index] = match;
    const block = this.#blocks[Number(index)]!;
    const column = indent.length + (dash === undefined ? 0 : 2);
    if (key === undefined) return block(indent.length);
    if (key === `${KEYLESS}: `) return block(column);
    return [`${indent}${dash ?? ''}${key.trimEnd()}`, ...block(column + 2)];
  }
}

/** A map key whose block marker is written without the key: for blocks that add keys of their own. */
export const KEYLESS = 'HELM_KEYLESS';

/** `n` spaces, for the lines of a block. */
export const spaces = (n: number): string => ' '.repeat(n);
