import { execFileSync } from 'node:child_process';
import { createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http2 from 'node:http2';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FcmServiceAccount } from '../../src/push/fcm-sender';

// Local stand-ins of Firebase Cloud Messaging (HTTP/1.1) and of the Apple Push Notification service
// (HTTP/2), each on TLS with a certificate made here (openssl) that the senders are told to trust. Each
// records what it received and answers as the test scripts it (else as the real service does on success).

/** A certificate for 127.0.0.1 and localhost, signed by itself. */
export function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'parley-cert-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-subj',
        '/CN=localhost',
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    return {
      key: readFileSync(join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export type Answer = { status: number; body?: unknown; headers?: Record<string, string> };
export type Received = { path: string; headers: Record<string, unknown>; body: unknown };

/** A JWT's parts, its signature checked with `publicKey` (RS256 or ES256, raw r‖s). */
export function readJwt(
  token: string,
  publicKey: string,
): { header: Record<string, unknown>; claims: Record<string, unknown> } {
  const [header = '', claims = '', signature = ''] = token.split('.');
  const parsed = JSON.parse(Buffer.from(header, 'base64url').toString()) as Record<string, unknown>;
  const key = createPublicKey(publicKey);
  const ok = verify(
    'sha256',
    Buffer.from(`${header}.${claims}`),
    parsed.alg === 'ES256' ? { key, dsaEncoding: 'ieee-p1363' } : key,
    Buffer.from(signature, 'base64url'),
  );
  if (!ok) throw new Error('the token’s signature does not verify');
  return {
    header: parsed,
    claims: JSON.parse(Buffer.from(claims, 'base64url').toString()) as Record<string, unknown>,
  };
}

export type FcmStandIn = {
  account: FcmServiceAccount;
  publicKey: string;
  url: string;
  /** Token requests (their form fields) and message sends, in order. */
  tokens: Array<Record<string, string>>;
  messages: Received[];
  /** Answers for the next message sends, in order; afterwards 200. */
  answers: Answer[];
  close(): Promise<void>;
};

export async function fcmStandIn(certificate: { key: string; cert: string }): Promise<FcmStandIn> {
  const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privatePem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const publicKey = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const tokens: Array<Record<string, string>> = [];
  const messages: Received[] = [];
  const answers: Answer[] = [];
  let issued = 0;
  const server = https.createServer(certificate, (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      const send = (answer: Answer) => {
        response.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
        response.end(JSON.stringify(answer.body ?? {}));
      };
      if (request.url === '/token') {
        tokens.push(Object.fromEntries(new URLSearchParams(text)));
        send({
          status: 200,
          body: { access_token: `ya29.stand-in-${++issued}`, expires_in: 3599, token_type: 'Bearer' },
        });
        return;
      }
      messages.push({ path: request.url ?? '', headers: request.headers, body: JSON.parse(text) });
      send(
        answers.shift() ?? {
          status: 200,
          body: { name: `projects/parley-test/messages/${messages.length}` },
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    account: {
      project_id: 'parley-test',
      client_email: 'parley-push@parley-test.iam.gserviceaccount.com',
      private_key: privatePem,
      token_uri: `${url}/token`,
    },
    publicKey,
    url,
    tokens,
    messages,
    answers,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

export type ApnsStandIn = {
  /** The .p8 key (PKCS#8 PEM) and the public key Apple would hold for it. */
  key: string;
  publicKey: string;
  origin: string;
  requests: Received[];
  answers: Answer[];
  /** Connections opened: the sender keeps one. */
  connections: number;
  close(): Promise<void>;
};

export async function apnsStandIn(certificate: { key: string; cert: string }): Promise<ApnsStandIn> {
  const pair = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const state: ApnsStandIn = {
    key: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: pair.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    origin: '',
    requests: [],
    answers: [],
    connections: 0,
    close: async () => {},
  };
  const server = http2.createSecureServer(certificate);
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on('session', (session) => {
    state.connections += 1;
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  server.on('stream', (stream, headers) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      state.requests.push({
        path: String(headers[':path']),
        headers: { ...headers },
        body: JSON.parse(Buffer.concat(chunks).toString() || 'null'),
      });
      const answer = state.answers.shift() ?? { status: 200 };
      stream.respond({ ':status': answer.status, 'apns-id': `stand-in-${state.requests.length}` });
      stream.end(answer.body === undefined ? '' : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise((resolve) => {
      for (const session of sessions) session.destroy();
      server.close(() => resolve());
    });
  return state;
}
