import { describe, expect, it } from 'vitest';
import { goBase64CorruptOffset } from '../../src/validation/go-base64.ts';

/** Go's base64.StdEncoding.DecodeString on each input (captured with `go run`). */
const GO_ANSWERS: [string, string | null][] = [
  ['', null],
  ['====', 'illegal base64 data at input byte 0'],
  ['YQ==YQ==', 'illegal base64 data at input byte 4'],
  ['YWJj!', 'illegal base64 data at input byte 4'],
  ['a', 'illegal base64 data at input byte 0'],
  ['a=bc', 'illegal base64 data at input byte 1'],
  ['aGVs\nbG8=', null],
  ['aGVs\r\nbG8=', null],
  ['aGVsbA=', 'illegal base64 data at input byte 7'],
  ['aGVsbA==', null],
  ['aGVsbA==\n', null],
  ['aGVsbA==x', 'illegal base64 data at input byte 8'],
  ['aGVsbG8', 'illegal base64 data at input byte 4'],
  ['aGVsbG8=', null],
  ['ab', 'illegal base64 data at input byte 0'],
  ['ab=\n', 'illegal base64 data at input byte 4'],
  ['ab=\n=', null],
  ['ab==cd', 'illegal base64 data at input byte 4'],
  ['ab=c', 'illegal base64 data at input byte 2'],
  ['abc', 'illegal base64 data at input byte 0'],
  ['abc=\n\nx', 'illegal base64 data at input byte 6'],
  ['abcd=', 'illegal base64 data at input byte 4'],
  ['not base64', 'illegal base64 data at input byte 3'],
  ['\u00e9', 'illegal base64 data at input byte 0'],
];

describe("Go's base64 decoding of []byte fields", () => {
  it.each(GO_ANSWERS)('%j: %s', (input, goError) => {
    const offset = goBase64CorruptOffset(input);
    expect(offset === undefined ? null : `illegal base64 data at input byte ${offset}`).toBe(goError);
  });
});
