/**
 * The certificates of a loopback cluster, made with the `openssl` command (on every Debian machine): one
 * CA signs etcd's and kube-apiserver's serving certificates and the client certificates of the
 * apiserver (towards etcd), the admin (system:masters) and the other components; a separate RSA key
 * signs service-account tokens.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ClientCertificate {
  certFile: string;
  keyFile: string;
}

export interface ClusterPki {
  caFile: string;
  caKeyFile: string;
  etcdServer: ClientCertificate;
  apiServerServing: ClientCertificate;
  /** kube-apiserver towards etcd. */
  apiServerEtcdClient: ClientCertificate;
  admin: ClientCertificate;
  controllerManager: ClientCertificate;
  scheduler: ClientCertificate;
  kwok: ClientCertificate;
  serviceAccountKeyFile: string;
  serviceAccountPublicKeyFile: string;
}

async function openssl(args: string[], cwd: string): Promise<void> {
  try {
    await run('openssl', args, { cwd });
  } catch (error) {
    const failure = error as { code?: string; stderr?: string; message: string };
    if (failure.code === 'ENOENT')
      throw new Error('the `openssl` command is missing: install it (Debian: openssl)');
    throw new Error(`openssl ${args[0]} failed: ${(failure.stderr ?? failure.message).trim()}`);
  }
}

async function ecKey(dir: string, name: string): Promise<string> {
  const file = join(dir, `${name}.key`);
  await openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', file], dir);
  return file;
}

/** A certificate signed by the CA; `altNames` makes it a serving certificate. */
async function signed(
  dir: string,
  name: string,
  subject: string,
  usage: 'server' | 'client',
  altNames: string[] = [],
): Promise<ClientCertificate> {
  const keyFile = await ecKey(dir, name);
  const csr = join(dir, `${name}.csr`);
  const certFile = join(dir, `${name}.crt`);
  const extFile = join(dir, `${name}.ext`);
  await writeFile(
    extFile,
    [
      'basicConstraints=critical,CA:FALSE',
      'keyUsage=critical,digitalSignature,keyEncipherment',
      `extendedKeyUsage=${usage === 'server' ? 'serverAuth,clientAuth' : 'clientAuth'}`,
      ...(altNames.length > 0 ? [`subjectAltName=${altNames.join(',')}`] : []),
    ].join('\n') + '\n',
  );
  await openssl(['req', '-new', '-key', keyFile, '-subj', subject, '-out', csr], dir);
  await openssl(
    [
      // A random serial each: certificates are signed in parallel, a shared serial file would race.
      'x509',
      '-req',
      '-in',
      csr,
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-set_serial',
      `0x${randomBytes(8).toString('hex')}`,
      '-days',
      '30',
      '-sha256',
      '-extfile',
      extFile,
      '-out',
      certFile,
    ],
    dir,
  );
  return { certFile, keyFile };
}

const LOOPBACK_NAMES = ['DNS:localhost', 'IP:127.0.0.1'];

export async function createClusterPki(dir: string): Promise<ClusterPki> {
  const caKeyFile = await ecKey(dir, 'ca');
  const caFile = join(dir, 'ca.crt');
  await openssl(
    [
      'req',
      '-x509',
      '-new',
      '-key',
      caKeyFile,
      '-subj',
      '/CN=scoby-test-ca',
      '-days',
      '30',
      '-sha256',
      '-out',
      caFile,
    ],
    dir,
  );
  const serviceAccountKeyFile = join(dir, 'sa.key');
  const serviceAccountPublicKeyFile = join(dir, 'sa.pub');
  await openssl(
    ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', serviceAccountKeyFile],
    dir,
  );
  await openssl(['pkey', '-in', serviceAccountKeyFile, '-pubout', '-out', serviceAccountPublicKeyFile], dir);
  const [etcdServer, apiServerServing, apiServerEtcdClient, admin, controllerManager, scheduler, kwok] =
    await Promise.all([
      signed(dir, 'etcd-server', '/CN=etcd', 'server', LOOPBACK_NAMES),
      signed(dir, 'apiserver', '/CN=kube-apiserver', 'server', [
        ...LOOPBACK_NAMES,
        'DNS:kubernetes',
        'DNS:kubernetes.default',
        'DNS:kubernetes.default.svc',
        'IP:10.96.0.1',
      ]),
      signed(dir, 'apiserver-etcd-client', '/CN=kube-apiserver-etcd-client', 'client'),
      signed(dir, 'admin', '/O=system:masters/CN=kubernetes-admin', 'client'),
      signed(dir, 'controller-manager', '/CN=system:kube-controller-manager', 'client'),
      signed(dir, 'scheduler', '/CN=system:kube-scheduler', 'client'),
      // kwok plays every fake kubelet: it writes Node and Pod status and node Leases.
      signed(dir, 'kwok', '/O=system:masters/CN=kwok', 'client'),
    ]);
  return {
    caFile,
    caKeyFile,
    etcdServer,
    apiServerServing,
    apiServerEtcdClient,
    admin,
    controllerManager,
    scheduler,
    kwok,
    serviceAccountKeyFile,
    serviceAccountPublicKeyFile,
  };
}
