import { describe, expect, it } from 'vitest';
import { readErrorBody } from '../src/error-body.ts';

describe('readErrorBody (§6.1)', () => {
  it('takes message, permanent and continue from a JSON object', () => {
    expect(readErrorBody('{"message": "quota exceeded", "permanent": true, "continue": true}')).toEqual({
      message: 'quota exceeded',
      permanent: true,
      continue: true,
    });
  });

  it('defaults fields that are absent or of the wrong type', () => {
    expect(readErrorBody('{}')).toEqual({ message: '', permanent: false, continue: false });
    expect(readErrorBody('{"message": 42, "permanent": "yes", "continue": 1, "other": true}')).toEqual({
      message: '',
      permanent: false,
      continue: false,
    });
  });

  it.each([
    ['plain text', '  unsupported form factor\n', 'unsupported form factor'],
    ['HTML', '<html><body>Bad Gateway</body></html>', '<html><body>Bad Gateway</body></html>'],
    ['empty', '', ''],
    ['a JSON string', '"oops"', '"oops"'],
    ['a JSON array', '[{"message": "x"}]', '[{"message": "x"}]'],
    ['JSON null', 'null', 'null'],
  ])('uses the trimmed text of a body that is %s', (_case, body, message) => {
    expect(readErrorBody(body)).toEqual({ message, permanent: false, continue: false });
  });

  it('cuts the text and the JSON message to 1024 characters', () => {
    expect(readErrorBody(` ${'x'.repeat(2000)} `).message).toBe('x'.repeat(1024));
    expect(readErrorBody(JSON.stringify({ message: 'y'.repeat(1025) })).message).toBe('y'.repeat(1024));
  });
});
