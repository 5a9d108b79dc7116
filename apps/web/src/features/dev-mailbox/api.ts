import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api-client';

// The development mailbox (no SMTP server configured): every mail the server would have sent.

export type DevMail = {
  id: number | string;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  links: string[];
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
