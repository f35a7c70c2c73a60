/**
 * RFC 6902 JSON Patch (application/json-patch+json). Messages follow evanphx/json-patch, the library
 * the API server uses, e.g. `replace operation does not apply: doc is missing key: /spec/x: missing value`.
 */
import { deepClone, deepEqual, isJsonObject } from '@scoby/structural-schema';
import { parseIndex, parsePointer } from './json-pointer.ts';
import { patched, rejected, type PatchResult } from './result.ts';
import { unmarshalError } from './unmarshal-error.ts';

type Container = Record<string, unknown> | unknown[];

class PatchFailure extends Error {}

const MISSING = 'missing value';

/** The container holding the last token of `path`, or undefined when an intermediate step is missing. */
function parentOf(doc: unknown, tokens: string[]): Container | undefined {
  let node = doc;
  for (const token of tokens.slice(0, -1)) {
    if (Array.isArray(node)) {
      const index = parseIndex(token);
      if (index === undefined || index >= node.length) return undefined;
      node = node[index];
    } else if (isJsonObject(node) && token in node) {
      node = node[token];
    } else {
      return undefined;
    }
  }
  return Array.isArray(node) || isJsonObject(node) ? node : undefined;
}

function lastToken(tokens: string[]): string {
  return tokens[tokens.length - 1] ?? '';
}

function arrayIndex(array: unknown[], token: string, allowEnd: boolean): number {
  const index = token === '-' && allowEnd ? array.length : parseIndex(token);
  if (index === undefined || index > array.length || (!allowEnd && index === array.length)) {
    throw new PatchFailure(`Unable to access invalid index: ${token}: invalid index referenced`);
  }
  return index;
}

function getAt(doc: unknown, tokens: string[]): { found: boolean; value?: unknown } {
  if (tokens.length === 0) return { found: true, value: doc };
  const parent = parentOf(doc, tokens);
  const token = lastToken(tokens);
  if (Array.isArray(parent)) {
    const index = parseIndex(token);
    return index !== undefined && index < parent.length
      ? { found: true, value: parent[index] }
      : { found: false };
  }
  return parent !== undefined && token in parent ? { found: true, value: parent[token] } : { found: false };
}

function pointerOf(operation: Record<string, unknown>, field: 'path' | 'from', opName: string): string[] {
  const pointer = operation[field];
  const tokens = typeof pointer === 'string' ? parsePointer(pointer) : undefined;
  if (tokens === undefined) {
    const shown = typeof pointer === 'string' ? pointer : JSON.stringify(pointer ?? null);
    throw new PatchFailure(`${opName} operation failed to decode ${field}: invalid JSON pointer ${shown}`);
  }
  return tokens;
}

function valueOf(operation: Record<string, unknown>, opName: string): unknown {
  if (!('value' in operation)) throw new PatchFailure(`${opName} operation missing value: ${MISSING}`);
  return deepClone(operation.value);
}

function add(doc: unknown, tokens: string[], value: unknown, pointer: string, opName = 'add'): unknown {
  if (tokens.length === 0) return value;
  const parent = parentOf(doc, tokens);
  if (parent === undefined) {
    throw new PatchFailure(
      `${opName} operation does not apply: doc is missing path: "${pointer}": ${MISSING}`,
    );
  }
  const token = lastToken(tokens);
  if (Array.isArray(parent)) parent.splice(arrayIndex(parent, token, true), 0, value);
  else parent[token] = value;
  return doc;
}

function remove(doc: unknown, tokens: string[], pointer: string, opName = 'remove'): unknown {
  const parent = tokens.length === 0 ? undefined : parentOf(doc, tokens);
  if (parent === undefined) {
    throw new PatchFailure(
      `${opName} operation does not apply: doc is missing path: "${pointer}": ${MISSING}`,
    );
  }
  const token = lastToken(tokens);
  if (Array.isArray(parent)) {
    parent.splice(arrayIndex(parent, token, false), 1);
  } else if (token in parent) {
    delete parent[token];
  } else {
    throw new PatchFailure(
      `error in remove for path: '${pointer}': Unable to remove nonexistent key: ${token}: ${MISSING}`,
    );
  }
  return doc;
}

function replace(doc: unknown, tokens: string[], value: unknown, pointer: string): unknown {
  if (tokens.length === 0) return value;
  const parent = parentOf(doc, tokens);
  const token = lastToken(tokens);
  if (parent === undefined || !getAt(doc, tokens).found) {
    throw new PatchFailure(`replace operation does not apply: doc is missing key: ${pointer}: ${MISSING}`);
  }
  if (Array.isArray(parent)) parent[arrayIndex(parent, token, false)] = value;
  else parent[token] = value;
  return doc;
}

function apply(doc: unknown, operation: unknown): unknown {
  if (!isJsonObject(operation)) throw new PatchFailure('invalid operation: not a JSON object');
  const op = operation.op;
  const path = typeof operation.path === 'string' ? operation.path : '';
  switch (op) {
    case 'add':
      return add(doc, pointerOf(operation, 'path', 'add'), valueOf(operation, 'add'), path);
    case 'remove':
      return remove(doc, pointerOf(operation, 'path', 'remove'), path);
    case 'replace':
      return replace(doc, pointerOf(operation, 'path', 'replace'), valueOf(operation, 'replace'), path);
    case 'test': {
      const found = getAt(doc, pointerOf(operation, 'path', 'test'));
      const expected = 'value' in operation ? operation.value : null;
      if (!found.found && expected === null) return doc;
      if (!found.found || !deepEqual(found.value, expected)) {
        throw new PatchFailure(`testing value ${path} failed: test failed`);
      }
      return doc;
    }
    case 'move':
    case 'copy': {
      const from = typeof operation.from === 'string' ? operation.from : '';
      const fromTokens = pointerOf(operation, 'from', op);
      const pathTokens = pointerOf(operation, 'path', op);
      const source = getAt(doc, fromTokens);
      if (!source.found)
        throw new PatchFailure(
          `${op} operation does not apply: doc is missing from path: ${from}: ${MISSING}`,
        );
      if (op === 'copy') return add(doc, pathTokens, deepClone(source.value), path, op);
      if (path.startsWith(`${from}/`)) {
        throw new PatchFailure(`move operation does not apply: path ${path} is a child of from ${from}`);
      }
      return add(remove(doc, fromTokens, from, op), pathTokens, source.value, path, op);
    }
    default:
      throw new PatchFailure(`Unexpected kind: ${typeof op === 'string' ? op : JSON.stringify(op ?? null)}`);
  }
}

export function applyJsonPatch(doc: unknown, operations: unknown): PatchResult {
  if (!Array.isArray(operations)) {
    return rejected(unmarshalError(operations, 'jsonpatch.Patch'));
  }
  try {
    return patched(
      operations.reduce<unknown>((current, operation) => apply(current, operation), deepClone(doc)),
    );
  } catch (error) {
    if (error instanceof PatchFailure) return rejected(error.message);
    throw error;
  }
}
