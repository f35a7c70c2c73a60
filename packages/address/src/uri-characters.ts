/** Character rules of RFC 3986 §2 and §3, per URI component. */

const UNRESERVED_AND_SUB_DELIMS = "A-Za-z0-9\\-._~!$&'()*+,;=";

const ALLOWED = {
  userinfo: new RegExp(`^[${UNRESERVED_AND_SUB_DELIMS}:]$`),
  host: new RegExp(`^[${UNRESERVED_AND_SUB_DELIMS}]$`),
  path: new RegExp(`^[${UNRESERVED_AND_SUB_DELIMS}:@/]$`),
  query: new RegExp(`^[${UNRESERVED_AND_SUB_DELIMS}:@/?]$`),
  fragment: new RegExp(`^[${UNRESERVED_AND_SUB_DELIMS}:@/?]$`),
};

export type UriComponent = keyof typeof ALLOWED;

const HEX_PAIR = /^[0-9A-Fa-f]{2}$/;

/** Returns why `text` is not a valid `component`, or undefined when it is. */
export function checkCharacters(text: string, component: UriComponent): string | undefined {
  for (let index = 0; index < text.length; index++) {
    const char = text.charAt(index);
    if (char === '%') {
      const encoded = text.slice(index + 1, index + 3);
      if (!HEX_PAIR.test(encoded)) {
        return `invalid percent-encoding ${JSON.stringify(`%${encoded}`)} in ${component}`;
      }
      index += 2;
    } else if (!ALLOWED[component].test(char)) {
      return `invalid character ${JSON.stringify(char)} in ${component}`;
    }
  }
  return undefined;
}
