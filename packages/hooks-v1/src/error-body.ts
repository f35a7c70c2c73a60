/** Reading the body of a non-2xx answer (docs/spec/hooks-v1.md §6.1). */
import { cutMessage, MAX_MESSAGE_LENGTH } from './messages.ts';
import { isJsonObject, parseJson } from './json.ts';

export interface ErrorBodyFields {
  message: string;
  permanent: boolean;
  continue: boolean;
}

export function readErrorBody(text: string): ErrorBodyFields {
  const parsed = parseJson(text);
  if (!isJsonObject(parsed)) {
    return { message: cutMessage(text.trim()), permanent: false, continue: false };
  }
  const { message, permanent } = parsed;
  const proceed = parsed['continue'];
  return {
    message: typeof message === 'string' ? message.slice(0, MAX_MESSAGE_LENGTH) : '',
    permanent: typeof permanent === 'boolean' ? permanent : false,
    continue: typeof proceed === 'boolean' ? proceed : false,
  };
}
