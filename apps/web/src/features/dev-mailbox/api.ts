import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

// The development mailbox (no SMTP server configured): every mail the server would have sent.

/** A file the mail carries (a calendar file for a booking); its content is downloaded on demand. */
export type DevMailAttachment = {
  filename: string;
  contentType: string;
  /** Bytes. */
  size: number;
};

export type DevMail = {
  id: number | string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  links: string[];
  attachments: DevMailAttachment[];
  status: string;
  createdAt: string;
};

export const MAILBOX_REFRESH_MS = 3000;

export const mailboxQuery = queryOptions({
  queryKey: ['dev', 'mailbox'],
  queryFn: ({ signal }) => api.get<{ items: DevMail[] }>('dev/mailbox', { signal }),
  refetchInterval: MAILBOX_REFRESH_MS,
});

export const mailQuery = (id: string) =>
  queryOptions({
    queryKey: ['dev', 'mailbox', 'view', id],
    queryFn: ({ signal }) => api.get<DevMail>('dev/mailbox/view', { query: { id }, signal }),
  });

/**
 * Where the browser downloads a mail's attachment (by its place in the mail): a plain link, as the dev
 * mailbox needs no login; the server answers the file with its type and name.
 */
export const attachmentUrl = (mailId: DevMail['id'], index: number) =>
  `/api/dev/mailbox/attachment?${new URLSearchParams({ id: String(mailId), index: String(index) })}`;
