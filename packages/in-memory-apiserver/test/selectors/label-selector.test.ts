import { describe, expect, it } from 'vitest';
import { parseLabelSelector } from '../../src/selectors/index.ts';

const labels = { app: 'web', tier: 'front', version: '12' };

function matches(text: string, subject: Record<string, string> | undefined = labels): boolean {
  const parsed = parseLabelSelector(text);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.matches(subject);
}

const errorOf = (text: string): string | undefined => {
  const parsed = parseLabelSelector(text);
  return parsed.ok ? undefined : parsed.message;
};

describe('parseLabelSelector: operators', () => {
  it.each([
    ['', true],
    ['app=web', true],
    ['app==web', true],
    ['app=db', false],
    ['app!=db', true],
    ['app!=web', false],
    ['missing!=x', true],
    ['app in (web,db)', true],
    ['app in (db)', false],
    ['missing in (a)', false],
    ['app notin (db,cache)', true],
    ['app notin (web)', false],
    ['missing notin (a)', true],
    ['app', true],
    ['missing', false],
    ['!missing', true],
    ['!app', false],
    ['version>10', true],
    ['version>12', false],
    ['version<13', true],
    ['app>1', false],
    ['app=web,tier=front', true],
    ['app=web,tier=back', false],
    ['  app = web ,  tier in ( front , back ) ', true],
    ['app=', false],
    ['tier in (,front)', true],
    ['app in (in,notin)', false],
  ])('%j → %s', (text, expected) => {
    expect(matches(text)).toBe(expected);
  });

  it('an empty value selects labels that are set to the empty string', () => {
    expect(matches('app=', { app: '' })).toBe(true);
    expect(matches('app in ()', { app: '' })).toBe(true);
  });

  it('treats absent labels as an empty set', () => {
    const withoutLabels = (text: string) => {
      const parsed = parseLabelSelector(text);
      return parsed.ok && parsed.matches(undefined);
    };
    expect(withoutLabels('app!=web')).toBe(true);
    expect(withoutLabels('app')).toBe(false);
    expect(withoutLabels('')).toBe(true);
  });
});

describe('parseLabelSelector: errors', () => {
  it.each([
    ['app=web,', "found '', expected: identifier after ','"],
    ['=web', "found '=', expected: !, identifier, or 'end of string'"],
    ['app web', "unable to parse requirement: found 'web', expected: in, notin, =, ==, !=, gt, lt"],
    ['app in web', "unable to parse requirement: found 'web' expected: '('"],
    ['app in (a b)', "unable to parse requirement: found 'b', expected: ',' or ')'"],
    ['app in (a', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['app in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['app=(x)', "unable to parse requirement: found '(', expected: identifier"],
    ['!app=x', "found '=', expected: ',' or 'end of string'"],
    ['app=a=b', "found '=', expected: ',' or 'end of string'"],
    ['! =x', "unable to parse requirement: found '=', expected: identifier"],
    [
      'version>x',
      "unable to parse requirement: values[0]: Invalid value: \"x\": for 'Gt', 'Lt' operators, the value must be an integer",
    ],
  ])('%j → %s', (text, message) => {
    expect(errorOf(text)).toBe(message);
  });

  it('validates keys like the server (nil path)', () => {
    expect(errorOf('-app=x')).toBe(
      "unable to parse requirement: <nil>: Invalid value: \"-app\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
    );
    expect(errorOf('Example.com/app=x')).toBe(
      "unable to parse requirement: <nil>: Invalid value: \"Example.com/app\": prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
    );
    expect(errorOf(`${'a'.repeat(64)}=x`)).toBe(
      `unable to parse requirement: <nil>: Invalid value: "${'a'.repeat(64)}": name part must be no more than 63 characters`,
    );
    expect(errorOf('a/b/c=x')).toBe(
      "unable to parse requirement: <nil>: Invalid value: \"a/b/c\": a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
    );
    expect(errorOf('/app=x')).toBe(
      'unable to parse requirement: <nil>: Invalid value: "/app": prefix part must be non-empty',
    );
  });

  it('validates values, indexing them in sorted order', () => {
    expect(errorOf('app in (b,-a)')).toBe(
      "unable to parse requirement: values[0][app]: Invalid value: \"-a\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
    );
    expect(errorOf(`app=${'v'.repeat(64)}`)).toBe(
      `unable to parse requirement: values[0][app]: Invalid value: "${'v'.repeat(64)}": must be no more than 63 characters`,
    );
  });
});
