import { idParam } from '@parley/domain/fields';
import { SERVER_TEXT } from '@parley/domain/messages';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { type Api, errorResponses } from '../../lib/api';
import { notFound } from '../../lib/http-error';
import { fromThisMachine } from '../../lib/loopback';
import { listMail, mailAttachment, viewMail } from './dev-mailbox.service';

/** What the mailbox shows of an attached file; its content comes from /dev/mailbox/attachment. */
const attachmentItem = z.object({
  filename: z.string(),
  contentType: z.string(),
  /** Bytes (UTF-8). */
  size: z.number(),
});

const mailItem = z.object({
  id: z.number(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  links: z.array(z.string()),
  attachments: z.array(attachmentItem),
  status: z.string(),
  createdAt: z.date(),
});

/**
 * `attachment; filename="…"`: quotes, backslashes and control characters never reach the header; a name
 * beyond ASCII gets an ASCII fallback plus its UTF-8 form (RFC 6266 `filename*`).
 */
export function contentDisposition(filename: string): string {
  const safe = filename.replace(/[^\x20-\x7e\u00a0-\uffff]|["\\/]/g, '_') || 'attachment';
  const ascii = safe.replace(/[^\x20-\x7e]/g, '_');
  if (ascii === safe) return `attachment; filename="${ascii}"`;
  const encoded = encodeURIComponent(safe).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The dev mailbox: registered only without SMTP_URL and never in production (see config.devMailbox). It
 * holds every school's reset and invitation links, so it answers clients on this machine only (the socket's
 * peer, never a relayed request), unless DEV_MAILBOX_OPEN says otherwise; others get 404.
 */
export function devMailboxRoutes(api: Api, ctx: AppContext): void {
  const tags = ['dev'];
  const local = {
    onRequest: async (request: FastifyRequest) => {
      if (!ctx.config.devMailboxOpen && !fromThisMachine(request)) throw notFound(SERVER_TEXT.notFound);
    },
  };
  api.get(
    '/dev/mailbox',
    { ...local, schema: { tags, response: { 200: z.object({ items: z.array(mailItem) }) } } },
    async () => ({ items: await listMail(ctx.db, 200) }),
  );
  api.get(
    '/dev/mailbox/view',
    {
      ...local,
      schema: {
        tags,
        querystring: z.strictObject({ id: idParam }),
        response: { 200: mailItem, ...errorResponses },
      },
    },
    async (request) => viewMail(ctx.db, request.query.id),
  );
  // A file, not JSON: the attachment as the mail carries it, for the browser to save.
  api.get(
    '/dev/mailbox/attachment',
    {
      ...local,
      schema: {
        tags,
        querystring: z.strictObject({
          id: idParam,
          index: z.coerce.number().int().min(0),
        }),
        produces: ['text/calendar', 'application/octet-stream'],
        response: {
          200: z.string().describe("the attachment's content, with its content type, as a download"),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const attachment = await mailAttachment(ctx.db, request.query.id, request.query.index);
      return (
        reply
          .header('content-type', attachment.contentType)
          .header('content-disposition', contentDisposition(attachment.filename))
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'no-store')
          // The bytes as the mail carries them; Fastify sends a Buffer as is (the schema documents a file).
          .send(attachment.bytes as unknown as string)
      );
    },
  );
}
