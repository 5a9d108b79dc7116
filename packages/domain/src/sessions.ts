import { idField } from './fields';
import { z } from './zod';

// The wire contract of one's signed-in sessions (decision 015).

export const sessionItem = z.object({
  id: z.number(),
  /** "Chrome on Windows", from the user agent (user-agent.ts). */
  device: z.string(),
  userAgent: z.string().nullable(),
  /** The address the session signed in from. */
  ip: z.string().nullable(),
  signedInAt: z.string(),
  lastActiveAt: z.string(),
  /** The session making this request ("this device"). */
  current: z.boolean(),
});
export type SessionItem = z.infer<typeof sessionItem>;

export const sessionsResponse = z.object({ items: z.array(sessionItem) });
export type SessionsResponse = z.infer<typeof sessionsResponse>;

export const endSessionRequest = z.strictObject({ id: idField });
export type EndSessionRequest = z.input<typeof endSessionRequest>;

export const endedSessionsResponse = z.object({ message: z.string(), ended: z.number() });
