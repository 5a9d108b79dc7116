import { z } from 'zod';
import type { AppContext } from '../../context';
import { type Api, errorResponses } from '../../lib/api';
import { notFound } from '../../lib/http-error';
import { findMail, listMail } from '../../mail/outbox.repository';

const mailItem = z.object({
  id: z.number(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  links: z.array(z.string()),
  status: z.string(),
  createdAt: z.date(),
});

const toItem = (row: Awaited<ReturnType<typeof listMail>>[number]) => ({
  id: row.id,
  to: row.to_address,
  subject: row.subject,
  text: row.text_body,
  html: row.html_body,
  links: row.links,
  status: row.status,
  createdAt: row.created_at,
});

/** The dev mailbox: registered only without SMTP_URL and never in production (see config.devMailbox). */
export function devMailboxRoutes(api: Api, ctx: AppContext): void {
  const tags = ['dev'];
  api.get(
    '/dev/mailbox',
    { schema: { tags, response: { 200: z.object({ items: z.array(mailItem) }) } } },
    async () => ({ items: (await listMail(ctx.db, 200)).map(toItem) }),
  );
  api.get(
    '/dev/mailbox/view',
    {
      schema: {
        tags,
        querystring: z.strictObject({ id: z.coerce.number().int().positive() }),
        response: { 200: mailItem, ...errorResponses },
      },
    },
    async (request) => {
      const mail = await findMail(ctx.db, request.query.id);
      if (!mail) throw notFound('No such mail.');
      return toItem(mail);
    },
  );
}
