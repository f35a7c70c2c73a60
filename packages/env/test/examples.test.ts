import { describe, expect, it } from 'vitest';
import { collision, config, instance, lookups, render } from './fixtures.ts';
import { renderEnv } from '../src/render.ts';

// docs/spec/env.md §10, every worked example with its complete output.
describe('worked examples (docs/spec/env.md §10)', () => {
  it('E1: default rendering of every value type', async () => {
    const result = await render({
      endpoint: 'https://api.example.org/v2',
      retries: 3,
      ratio: 0.25,
      verbose: true,
      notes: '',
      tags: ['blue', 'green'],
      tuning: { maxBytes: 1048576, window: { seconds: 30 } },
      extra: {},
    });
    expect(result).toEqual({
      env: [
        { name: 'ENDPOINT', value: 'https://api.example.org/v2' },
        { name: 'NOTES', value: '' },
        { name: 'RATIO', value: '0.25' },
        { name: 'RETRIES', value: '3' },
        { name: 'TAGS', value: 'blue,green' },
        { name: 'TUNING_MAXBYTES', value: '1048576' },
        { name: 'TUNING_WINDOW_SECONDS', value: '30' },
        { name: 'VERBOSE', value: 'true' },
      ],
      volumes: [],
      volumeMounts: [],
      sourceMap: {
        'spec.endpoint': 'https://api.example.org/v2',
        'spec.notes': '',
        'spec.ratio': '0.25',
        'spec.retries': '3',
        'spec.tags': 'blue,green',
        'spec.tuning.maxBytes': '1048576',
        'spec.tuning.window.seconds': '30',
        'spec.verbose': 'true',
      },
      warnings: [],
      errors: [],
      needsSpecChange: false,
    });
  });

  it('E2: prefix, explicit name, add.toEnv, characters kept', async () => {
    const result = await render(
      { smtpHost: 'mail.internal', smtpPort: 587, 'sender-address': 'noreply@example.org' },
      {
        global: { defaultPrefix: 'MAILER_' },
        fromSpec: { toEnv: [{ path: 'spec.smtpHost', name: 'SMTP_SERVER' }] },
        add: { toEnv: [{ name: 'LOG_LEVEL', value: 'info' }] },
      },
    );
    expect(result).toEqual({
      env: [
        { name: 'LOG_LEVEL', value: 'info' },
        { name: 'MAILER_SENDER-ADDRESS', value: 'noreply@example.org' },
        { name: 'MAILER_SMTPPORT', value: '587' },
        { name: 'SMTP_SERVER', value: 'mail.internal' },
      ],
      volumes: [],
      volumeMounts: [],
      sourceMap: {
        'spec.sender-address': 'noreply@example.org',
        'spec.smtpHost': 'mail.internal',
        'spec.smtpPort': '587',
      },
      warnings: [],
      errors: [],
      needsSpecChange: false,
    });
  });

  it('E3: skipping an object, segment-wise prefixes', async () => {
    const result = await render(
      { auth: { user: 'bob', token: 's3cr3t' }, authority: 'ca.example.org', region: 'eu-west-1' },
      { fromSpec: { skip: [{ path: '.spec.auth' }] } },
    );
    expect(result).toEqual({
      env: [
        { name: 'AUTHORITY', value: 'ca.example.org' },
        { name: 'REGION', value: 'eu-west-1' },
      ],
      volumes: [],
      volumeMounts: [],
      sourceMap: { 'spec.authority': 'ca.example.org', 'spec.region': 'eu-west-1' },
      warnings: [],
      errors: [],
      needsSpecChange: false,
    });
  });

  it('E4: defaults only for absent values', async () => {
    const result = await render(
      { mode: '', dryRun: false, level: 0, zone: null },
      {
        fromSpec: {
          toEnv: [
            { path: 'spec.mode', default: { value: 'fast' } },
            { path: 'spec.dryRun', default: { value: 'true' } },
            { path: 'spec.level', default: { value: '5' } },
            { path: 'spec.cache.sizeMb', default: { value: '64' } },
            // `defaultValue: zone-a` arrives folded into default.value by normalisation.
            { path: 'spec.zone', default: { value: 'zone-a' } },
            {
              path: 'spec.token',
              name: 'API_TOKEN',
              default: { secret: { name: 'api-creds', key: 'token' } },
            },
          ],
        },
      },
    );
    expect(result).toEqual({
      env: [
        { name: 'API_TOKEN', valueFrom: { secretKeyRef: { name: 'api-creds', key: 'token' } } },
        { name: 'CACHE_SIZEMB', value: '64' },
        { name: 'DRYRUN', value: 'false' },
        { name: 'LEVEL', value: '0' },
        { name: 'MODE', value: '' },
        { name: 'ZONE', value: 'zone-a' },
      ],
      volumes: [],
      volumeMounts: [],
      sourceMap: {
        'spec.cache.sizeMb': '64',
        'spec.dryRun': 'false',
        'spec.level': '0',
        'spec.mode': '',
        'spec.zone': 'zone-a',
      },
      warnings: [],
      errors: [],
      needsSpecChange: false,
    });
  });

  it('E5: a toEnv entry on an object', async () => {
    const result = await render(
      { name: 'orders', retryPolicy: { maxAttempts: 4, backoff: 'PT2S', codes: [502, 503] } },
      {
        fromSpec: {
          toEnv: [
            { path: 'spec.retryPolicy', name: 'RETRY_POLICY' },
            { path: 'spec.retryPolicy.maxAttempts', name: 'MAX_ATTEMPTS' },
          ],
        },
      },
    );
    const policy = '{"backoff":"PT2S","codes":[502,503],"maxAttempts":4}';
    expect(result).toEqual({
      env: [
        { name: 'NAME', value: 'orders' },
        { name: 'RETRY_POLICY', value: policy },
      ],
      volumes: [],
      volumeMounts: [],
      sourceMap: { 'spec.name': 'orders', 'spec.retryPolicy': policy },
      warnings: [],
      errors: [],
      needsSpecChange: false,
    });
  });

  it('E6: arrays', async () => {
    const result = await render({
      ports: [8080, 8081, 8082, 8083, 8084, 8085, 8086, 8087, 8088, 8089, 8090, 8091],
      weights: [0.5, 2, 1.5e-7, true, 'x y'],
      rules: [
        { match: 'a<b', action: 'drop' },
        { action: 'keep', match: 'x&y' },
      ],
      matrix: [[1, 2], [3]],
      excluded: [],
    });
    const ports = '8080,8081,8082,8083,8084,8085,8086,8087,8088,8089,8090,8091';
    const rules = '[{"action":"drop","match":"a<b"},{"action":"keep","match":"x&y"}]';
    expect(result).toEqual({
      env: [
        { name: 'EXCLUDED', value: '' },
        { name: 'MATRIX', value: '[[1,2],[3]]' },
        { name: 'PORTS', value: ports },
        { name: 'RULES', value: rules },
        { name: 'WEIGHTS', value: '0.5,2,1.5e-7,true,x y' },
      ],
      volumes: [],
      volumeMounts: [],
      sourceMap: {
        'spec.excluded': '',
        'spec.matrix': '[[1,2],[3]]',
        'spec.ports': ports,
        'spec.rules': rules,
        'spec.weights': '0.5,2,1.5e-7,true,x y',
      },
      warnings: [],
      errors: [],
      needsSpecChange: false,
    });
  });

  const e7 = {
    global: { defaultPrefix: 'PG_' },
    fromSpec: {
      toEnv: [
        {
          path: 'spec.credentials',
          name: 'DB_PASSWORD',
          valueFrom: {
            secretPath: { name: 'spec.credentials.secretName', key: 'spec.credentials.passwordKey' },
          },
        },
        {
          path: 'spec.settings',
          valueFrom: {
            configMapPath: { name: '$.spec.settings.cmName', key: 'spec.settings.key', optional: true },
          },
        },
      ],
    },
  };

  it('E7: values from ConfigMaps and Secrets named in the spec', async () => {
    const result = await render(
      {
        database: 'orders',
        credentials: { secretName: 'db-secret', passwordKey: 'password' },
        settings: { cmName: 'db-settings', key: 'pool.conf' },
      },
      e7,
    );
    expect(result).toEqual({
      env: [
        { name: 'DB_PASSWORD', valueFrom: { secretKeyRef: { name: 'db-secret', key: 'password' } } },
        { name: 'PG_DATABASE', value: 'orders' },
        {
          name: 'PG_SETTINGS',
          valueFrom: { configMapKeyRef: { name: 'db-settings', key: 'pool.conf', optional: true } },
        },
      ],
      volumes: [],
      volumeMounts: [],
      sourceMap: { 'spec.database': 'orders' },
      warnings: [],
      errors: [],
      needsSpecChange: false,
    });
  });

  it('E8: resolveAddress, with the instance namespace filled into refs that name none', async () => {
    const sink =
      '{"ref":{"apiVersion":"v1","kind":"Service","name":"collector","namespace":"shop"},"uri":"/events"}';
    const target = '{"uri":"https://hooks.example.net/in"}';
    const mirror =
      '{"ref":{"apiVersion":"eventing.knative.dev/v1","kind":"Broker","name":"default","namespace":"infra"}}';
    const world = lookups({
      addresses: {
        [sink]: { ok: true, url: 'http://collector.shop.svc.cluster.local/events' },
        [target]: { ok: true, url: 'https://hooks.example.net/in' },
        [mirror]: { ok: true, url: 'http://broker-ingress.knative-eventing.svc.cluster.local/infra/default' },
      },
    });
    const spec = {
      sink: { ref: { apiVersion: 'v1', kind: 'Service', name: 'collector' }, uri: '/events' },
      target: { uri: 'https://hooks.example.net/in' },
      mirror: {
        ref: { apiVersion: 'eventing.knative.dev/v1', kind: 'Broker', name: 'default', namespace: 'infra' },
      },
    };
    const resolve = { builtInFunc: { name: 'resolveAddress' } };
    const result = await renderEnv(
      {
        instance: instance(spec, 'shop'),
        config: config({
          global: { defaultPrefix: 'APP_' },
          fromSpec: {
            toEnv: [
              { path: 'spec.sink', name: 'K_SINK', valueFrom: resolve },
              { path: 'spec.target', valueFrom: resolve },
              { path: 'spec.mirror', valueFrom: resolve },
            ],
          },
        }),
      },
      world,
    );
    expect(result).toEqual({
      env: [
        {
          name: 'APP_MIRROR',
          value: 'http://broker-ingress.knative-eventing.svc.cluster.local/infra/default',
        },
        { name: 'APP_TARGET', value: 'https://hooks.example.net/in' },
        { name: 'K_SINK', value: 'http://collector.shop.svc.cluster.local/events' },
      ],
      volumes: [],
      volumeMounts: [],
      sourceMap: {
        'spec.mirror': 'http://broker-ingress.knative-eventing.svc.cluster.local/infra/default',
        'spec.sink': 'http://collector.shop.svc.cluster.local/events',
        'spec.target': 'https://hooks.example.net/in',
      },
      warnings: [],
      errors: [],
      needsSpecChange: false,
    });
    expect([...world.calls].sort()).toEqual([
      [mirror, 'shop'],
      [sink, 'shop'],
      [target, 'shop'],
    ]);
    expect(spec.sink.ref).toEqual({ apiVersion: 'v1', kind: 'Service', name: 'collector' });
  });

  it('E9: add.toEnv forms and a collision with the spec', async () => {
    const result = await render(
      { bucket: 'media', region: 'us-west-2' },
      {
        add: {
          toEnv: [
            { name: 'POD_NAMESPACE', valueFrom: { field: { fieldPath: 'metadata.namespace' } } },
            { name: 'REGION', value: 'eu-central-1' },
            { name: 'API_KEY', valueFrom: { secret: { name: 'shared-keys', key: 'api' } } },
            { name: 'FEATURE_FLAGS', valueFromControllerConfigMap: { name: 'scoby-flags', key: 'flags' } },
          ],
        },
      },
      { configMaps: { 'scoby-flags': { flags: 'beta,metrics' } } },
    );
    expect(result).toEqual({
      env: [
        { name: 'API_KEY', valueFrom: { secretKeyRef: { name: 'shared-keys', key: 'api' } } },
        { name: 'BUCKET', value: 'media' },
        { name: 'FEATURE_FLAGS', value: 'beta,metrics' },
        { name: 'POD_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
        { name: 'REGION', value: 'eu-central-1' },
      ],
      volumes: [],
      volumeMounts: [],
      sourceMap: { 'spec.bucket': 'media', 'spec.region': 'us-west-2' },
      warnings: [
        collision(
          'environment variable "REGION" from "spec.region" is not set: the name is set by add.toEnv',
        ),
      ],
      errors: [],
      needsSpecChange: false,
    });
  });

  it('E10: collisions between spec-derived names', async () => {
    const result = await render(
      { logLevel: 'debug', loglevel: 'warn', port: 8080, listenPort: 9090 },
      { fromSpec: { toEnv: [{ path: 'spec.listenPort', name: 'PORT' }] } },
    );
    expect(result).toEqual({
      env: [
        { name: 'LOGLEVEL', value: 'debug' },
        { name: 'PORT', value: '9090' },
      ],
      volumes: [],
      volumeMounts: [],
      sourceMap: {
        'spec.listenPort': '9090',
        'spec.logLevel': 'debug',
        'spec.loglevel': 'warn',
        'spec.port': '8080',
      },
      warnings: [
        collision(
          'environment variable "LOGLEVEL" from "spec.loglevel" is not set: the name is set by "spec.logLevel"',
        ),
        collision(
          'environment variable "PORT" from "spec.port" is not set: the name is set by "spec.listenPort"',
        ),
      ],
      errors: [],
      needsSpecChange: false,
    });
  });

  it('E11: an instance without spec', async () => {
    const result = await render(undefined, {
      global: { defaultPrefix: 'SRV_' },
      fromSpec: { toEnv: [{ path: 'spec.port', default: { value: '8080' } }, { path: 'spec.host' }] },
      add: { toEnv: [{ name: 'MODE', value: 'standalone' }] },
    });
    expect(result).toEqual({
      env: [
        { name: 'MODE', value: 'standalone' },
        { name: 'SRV_PORT', value: '8080' },
      ],
      volumes: [],
      volumeMounts: [],
      sourceMap: { 'spec.port': '8080' },
      warnings: [],
      errors: [],
      needsSpecChange: false,
    });
  });

  it('E12: volumes', async () => {
    const result = await render(
      {
        title: 'Welcome',
        tls: { secret: 'web-tls', certKey: 'tls.crt' },
        templates: { configMap: 'page-templates' },
      },
      {
        fromSpec: {
          toVolume: [
            {
              path: 'spec.tls',
              name: 'tls',
              mountPath: '/etc/tls',
              mountFrom: {
                secretPath: {
                  secretName: 'spec.tls.secret',
                  items: [{ key: 'spec.tls.certKey', path: 'cert.pem' }],
                  defaultMode: 256,
                },
              },
            },
            {
              path: 'spec.templates',
              name: 'templates',
              mountPath: '/srv/templates',
              mountFrom: { configMapPath: { name: 'spec.templates.configMap' } },
            },
          ],
        },
        add: {
          toVolume: [
            {
              name: 'ca-bundle',
              mountPath: '/etc/ssl/custom',
              mountFrom: {
                configMapPath: {
                  name: 'cluster-ca',
                  items: [{ key: 'ca.crt', path: 'ca.crt' }],
                  optional: true,
                },
              },
            },
          ],
        },
      },
    );
    expect(result).toEqual({
      env: [{ name: 'TITLE', value: 'Welcome' }],
      volumeMounts: [
        { name: 'ca-bundle', mountPath: '/etc/ssl/custom' },
        { name: 'templates', mountPath: '/srv/templates' },
        { name: 'tls', mountPath: '/etc/tls' },
      ],
      volumes: [
        {
          name: 'ca-bundle',
          configMap: { name: 'cluster-ca', items: [{ key: 'ca.crt', path: 'ca.crt' }], optional: true },
        },
        { name: 'templates', configMap: { name: 'page-templates' } },
        {
          name: 'tls',
          secret: { secretName: 'web-tls', items: [{ key: 'tls.crt', path: 'cert.pem' }], defaultMode: 256 },
        },
      ],
      sourceMap: { 'spec.title': 'Welcome' },
      warnings: [],
      errors: [],
      needsSpecChange: false,
    });
  });

  it('E13: render errors are all collected, in path order', async () => {
    const result = await render(
      {
        database: 'orders',
        credentials: { passwordKey: 'password' },
        settings: { cmName: 42, key: 'pool.conf' },
      },
      e7,
    );
    expect(result.errors.join('; ')).toBe(
      'spec.credentials: valueFrom.secretPath.name: no value at "spec.credentials.secretName"; ' +
        'spec.settings: valueFrom.configMapPath.name: value at "spec.settings.cmName" is not a string',
    );
    expect(result.env).toEqual([{ name: 'PG_DATABASE', value: 'orders' }]);
  });

  it('E13: a spec that is a string', async () => {
    const result = await render('oops', e7);
    expect(result).toEqual({
      env: [],
      volumes: [],
      volumeMounts: [],
      sourceMap: {},
      warnings: [],
      errors: ['spec: expected an object, got string'],
      needsSpecChange: true,
    });
  });
});
