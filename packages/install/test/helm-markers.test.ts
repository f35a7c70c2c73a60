import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { HelmMarkers, KEYLESS } from '../src/helm-markers.ts';

describe('HelmMarkers', () => {
  it('writes inline markers as their expression, in block and flow collections', () => {
    const markers = new HelmMarkers();
    const subject = parseDocument('{kind: ServiceAccount, namespace: x}');
    subject.set('namespace', markers.inline('{{ .Release.Namespace }}'));
    const object = { replicas: markers.inline('{{ .Values.replicas }}'), subject: subject.contents };
    expect(markers.render(object)).toBe(
      'replicas: {{ .Values.replicas }}\nsubject: { kind: ServiceAccount, namespace: {{ .Release.Namespace }} }\n',
    );
  });

  it('writes a block after its key one level deeper, list items at the dash, keyless blocks beside the keys', () => {
    const markers = new HelmMarkers();
    const block = (name: string) =>
      markers.block((indent) => [`${' '.repeat(indent)}{{ ${name} ${indent} }}`]);
    const rendered = markers.render({
      spec: {
        resources: block('value'),
        env: [{ name: 'A' }, block('items')],
        [KEYLESS]: block('keys'),
      },
    });
    expect(rendered).toBe(
      [
        'spec:',
        '  resources:',
        '    {{ value 4 }}',
        '  env:',
        '    - name: A',
        '    {{ items 4 }}',
        '  {{ keys 2 }}',
        '',
      ].join('\n'),
    );
  });
});
