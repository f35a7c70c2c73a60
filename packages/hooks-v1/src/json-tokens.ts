/**
 * Counts the structural characters of JSON text (`{`, `[`, `,`, `:` outside strings) as it streams
 * in, chunk by chunk: each stands for an object, array, element or member that JSON.parse will
 * allocate, which is what makes a parsed body many times larger than its text.
 */
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const STRUCTURAL = new Uint8Array(256);
for (const character of '{[,:') STRUCTURAL[character.charCodeAt(0)] = 1;

export class JsonTokenCounter {
  #tokens = 0;
  #inString = false;
  #escaped = false;

  get tokens(): number {
    return this.#tokens;
  }

  /** Counts the tokens of `chunk`; returns how many it added. */
  count(chunk: Uint8Array): number {
    let added = 0;
    let inString = this.#inString;
    let escaped = this.#escaped;
    for (let i = 0; i < chunk.length; i++) {
      const byte = chunk[i] as number;
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === BACKSLASH) escaped = true;
        else if (byte === QUOTE) inString = false;
      } else if (byte === QUOTE) inString = true;
      else added += STRUCTURAL[byte] as number;
    }
    this.#inString = inString;
    this.#escaped = escaped;
    this.#tokens += added;
    return added;
  }
}
