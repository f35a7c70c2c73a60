/**
 * Output as the docs show it and as a run prints it, made comparable: what differs from one run to the
 * next (ages, timestamps, uids, ports, resourceVersions) becomes a placeholder, and column padding
 * (which follows the width of those values) a single space.
 */
export function normaliseOutput(text: string): string {
  return text
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<time>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uid>')
    .replace(/\b(127\.0\.0\.1|localhost|0\.0\.0\.0):\d+/g, '$1:<port>')
    .replace(/"resourceVersion":\s*"\d+"/g, '"resourceVersion":"<rv>"')
    .replace(
      /(^|\s)(\d+d)?(\d+h)?(\d+m)?(\d+s)?(?=\s|$)/gm,
      (match, space: string, ...units: (string | undefined)[]) =>
        units.slice(0, 4).some((unit) => unit !== undefined) ? `${space}<age>` : match,
    )
    .split('\n')
    .map((line) => line.trim().replace(/[ \t]+/g, ' '))
    .filter((line) => line !== '')
    .join('\n');
}
