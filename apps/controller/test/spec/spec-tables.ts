/** Reading the tables and examples of docs/spec/ in tests, so that spec and code cannot drift apart. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SPEC = fileURLToPath(new URL('../../../../docs/spec/', import.meta.url));

export function specText(file: string): string {
  return readFileSync(`${SPEC}${file}`, 'utf8');
}

/** The text of the section whose heading starts with `heading` (e.g. `### 4.1`), up to the next heading of its level or above. */
export function section(text: string, heading: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith(`${heading} `) || line === heading);
  if (start < 0) throw new Error(`no section "${heading}"`);
  const level = heading.indexOf(' ') < 0 ? heading.length : heading.indexOf(' ');
  const end = lines.findIndex(
    (line, index) => index > start && /^#+ /.test(line) && line.indexOf(' ') <= level,
  );
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** The rows of the first Markdown table in `text`, each as its cells (trimmed), header and rule left out. */
export function tableRows(text: string): string[][] {
  const lines = text.split('\n');
  const start = lines.findIndex((line) => line.startsWith('|'));
  if (start < 0) throw new Error('no table');
  const rows: string[][] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split('|')
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

/** Every `code span` of a cell, in order. */
export function codeSpans(cell: string): string[] {
  return [...cell.matchAll(/`([^`]*)`/g)].map((match) => match[1] ?? '');
}

/** A cell holding one code span: its text, with `""` read as the empty string. */
export function codeValue(cell: string): string {
  const [value] = codeSpans(cell);
  if (value === undefined) throw new Error(`no code span in "${cell}"`);
  return value === '""' ? '' : value;
}
