import { createECDH, createPublicKey, type ECDH, randomBytes, verify } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import type { PushGuard } from '../../src/push/push-guard';

// The "browser" and its push service, on 127.0.0.1: a P-256 key pair and auth secret as a browser makes
// them, and an HTTP endpoint that records what the app's worker sends, answering with a chosen status.

/**
 * The test seam of push (issue 35), passed in code to createTestApp and the worker by the tests that
 * deliver to these listeners: plain HTTP to 127.0.0.1 and nothing else. The server's own guard
 * (pushGuard(config.pushServiceHosts)) refuses all of it; no setting makes it this one.
 */
export const LOCAL_PUSH: PushGuard = {
  endpointProblem: (endpoint) =>
    /^http:\/\/127\.0\.0\.1:\d+\//.test(endpoint) ? undefined : 'not a test listener on 127.0.0.1',
  addressProblem: (address) => (address === '127.0.0.1' ? undefined : `${address} is not 127.0.0.1`),
};

const ece = createRequire(import.meta.url)('http_ece') as {
  decrypt(buffer: Buffer, params: { version: string; privateKey: ECDH; authSecret: Buffer }): Buffer;
};

export type Received = { path: string; headers: Record<string, string | string[] | undefined>; body: Buffer };

export type Browser = {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  /** RFC 8291 (aes128gcm) with the browser's private key and auth secret: what the service worker reads. */
  decrypt(body: Buffer): unknown;
};

export type PushService = {
  origin: string;
  received: Received[];
  /** The status the next requests get (201 as a push service accepts). */
  status: number;
  /** Sent as Location with the status (a redirect), when set. */
  location: string | undefined;
  browser(name: string): Browser;
  close(): Promise<void>;
};

export async function pushService(): Promise<PushService> {
  const received: Received[] = [];
  const service: { status: number; location: string | undefined } = { status: 201, location: undefined };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks) });
      response.writeHead(service.status, service.location ? { location: service.location } : {}).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    received,
    get status() {
      return service.status;
    },
    set status(value: number) {
      service.status = value;
    },
    get location() {
      return service.location;
    },
    set location(value: string | undefined) {
      service.location = value;
    },
    browser(name: string): Browser {
      const ecdh = createECDH('prime256v1');
      ecdh.generateKeys();
      const auth = randomBytes(16);
      return {
        endpoint: `${origin}/push/${name}`,
        keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') },
        decrypt: (body) =>
          JSON.parse(
            ece.decrypt(body, { version: 'aes128gcm', privateKey: ecdh, authSecret: auth }).toString(),
          ),
      };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Checks the VAPID Authorization header (RFC 8292) as a push service would: `vapid t=<JWT>, k=<key>`,
 * an ES256 signature by the key, the endpoint's origin as audience, an expiry ahead. Returns the key.
 */
export function verifyVapid(header: string | string[] | undefined, endpointOrigin: string): string {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(String(header));
  if (!match) throw new Error(`not a VAPID header: ${header}`);
  const [, jwt = '', k = ''] = match;
  const [head = '', claims = '', signature = ''] = jwt.split('.');
  const point = Buffer.from(k, 'base64url');
  const key = createPublicKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      x: point.subarray(1, 33).toString('base64url'),
      y: point.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  const ok = verify(
    'sha256',
    Buffer.from(`${head}.${claims}`),
    { key, dsaEncoding: 'ieee-p1363' },
    Buffer.from(signature, 'base64url'),
  );
  if (!ok) throw new Error('VAPID signature does not verify');
  const body = JSON.parse(Buffer.from(claims, 'base64url').toString()) as {
    aud: string;
    exp: number;
    sub: string;
  };
  if (body.aud !== endpointOrigin) throw new Error(`VAPID audience ${body.aud}`);
  if (body.exp * 1000 < Date.now()) throw new Error('VAPID token expired');
  if (!/^(mailto:|https:)/.test(body.sub)) throw new Error(`VAPID subject ${body.sub}`);
  return k;
}
