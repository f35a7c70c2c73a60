/**
 * What the kubelet does to an env `value` before the process sees it: the dependent-variable
 * expansion of Kubernetes (third_party/forked/golang/expansion). `$$` is a literal `$`, `$(NAME)` is
 * the value of NAME when `lookup` knows it and stays as written otherwise, any other `$` is kept.
 */
export function expandLikeKubernetes(input: string, lookup: (name: string) => string | undefined): string {
  let out = '';
  let checkpoint = 0;
  for (let cursor = 0; cursor < input.length; cursor++) {
    if (input[cursor] !== '$' || cursor + 1 >= input.length) continue;
    out += input.slice(checkpoint, cursor);
    const next = input[cursor + 1];
    if (next === '$') {
      out += '$';
      cursor += 1;
    } else if (next === '(') {
      const closer = input.indexOf(')', cursor + 2);
      if (closer === -1) {
        out += '$(';
        cursor += 1;
      } else {
        const name = input.slice(cursor + 2, closer);
        out += lookup(name) ?? `$(${name})`;
        cursor = closer;
      }
    } else {
      out += `$${next}`;
      cursor += 1;
    }
    checkpoint = cursor + 1;
  }
  return out + input.slice(checkpoint);
}
