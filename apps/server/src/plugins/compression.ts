import { promisify } from 'node:util';
import { brotliCompress, gzip, constants as zlib } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

/** Below this an answer goes as it is: a few hundred bytes fit in one packet anyway. */
export const COMPRESS_MIN_BYTES = 1024;
const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|[\w.+-]+\+(json|xml))|image\/svg\+xml)/i;

export type Encoding = 'br' | 'gzip';

/**
 * The encoding to answer in, from an Accept-Encoding header: brotli if the client takes it, else gzip,
 * else none. `q=0` refuses a coding, `*` stands for any not named.
 */
export function pickEncoding(header: string | undefined): Encoding | null {
  if (!header) return null;
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const weight = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    q.set(name, weight === undefined ? 1 : Number(weight));
  }
  const accepts = (coding: Encoding) => (q.get(coding) ?? q.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return null;
}

/**
 * Compresses answers the server builds in memory (API JSON, CSV and calendar files, the app's page) when
 * they are large and the client asks for it. Streams pass untouched: the app's files are precompressed at
 * build time (plugins/web-app.ts) and a stream may be long-lived. Brotli at a middling quality: the
 * strongest levels cost more CPU per answer than they save on the wire.
 */
export function registerCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    if (!COMPRESSIBLE.test(type) || reply.hasHeader('content-encoding')) return payload;
    // The answer depends on the header whether or not this one is compressed (shared caches).
    reply.header('vary', varyWith(reply.getHeader('vary')));
    // Whether the client takes a coding first: most answers then go as they are, without a copy made.
    const encoding = pickEncoding(request.headers['accept-encoding']);
    if (!encoding || request.method === 'HEAD') return payload;
    const body = typeof payload === 'string' ? Buffer.from(payload) : payload;
    if (body.length < COMPRESS_MIN_BYTES) return payload;
    const compressed =
      encoding === 'br'
        ? await brotli(body, {
            params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
          })
        : await gzipped(body, { level: 6 });
    reply.header('content-encoding', encoding);
    reply.removeHeader('content-length'); // Fastify sets it from the compressed body
    return compressed;
  });
}

function varyWith(current: unknown): string {
  const list = Array.isArray(current) ? current.join(', ') : String(current ?? '');
  if (/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(list)) return list;
  return list ? `${list}, Accept-Encoding` : 'Accept-Encoding';
}
