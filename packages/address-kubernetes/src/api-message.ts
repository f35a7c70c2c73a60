import type { ApiResponse } from './api-get.ts';

/** The message of a failed API request: the `message` of its Status body when there is one. */
export function apiErrorMessage(response: ApiResponse): string {
  const { body } = response;
  if (
    typeof body === 'object' &&
    body !== null &&
    'message' in body &&
    typeof body.message === 'string' &&
    body.message !== ''
  ) {
    return body.message;
  }
  if (typeof body === 'string' && body.trim() !== '') return body.trim();
  return `the API server answered HTTP ${response.status}`;
}
