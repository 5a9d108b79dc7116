import type { Role } from '@parley/domain/roles';
import type { AppContext } from '../../context';
import type { Db } from '../../db/database';
import type { TokenKind } from '../../db/schema';
import { enqueueMail, type OutgoingMail } from '../../mail/outbox.repository';
import type { Who } from '../../mail/templates';
import { issueToken } from './tokens.repository';

/** Who a link is for: the person it signs in and the school it names. */
export type LinkHolder = {
  id: number;
  email: string;
  first_name: string;
  school: { id: number; name: string };
};

/**
 * Issues a link (a token of `kind`) for a person and writes the mail that carries it, in the caller's
 * transaction: the link exists exactly when its mail will go (decisions 003 and 004). Signup's
 * verification, its resend, a password reset and every invitation go through here.
 */
export async function mailNewLink(
  ctx: AppContext,
  db: Db,
  holder: LinkHolder,
  link: { kind: TokenKind; role?: Role },
  mail: (who: Who, token: string) => OutgoingMail,
): Promise<void> {
  const token = await issueToken(db, {
    userId: holder.id,
    schoolId: holder.school.id,
    kind: link.kind,
    ...(link.role && { role: link.role }),
  });
  const who: Who = {
    product: ctx.config.appName,
    appUrl: ctx.config.appUrl,
    schoolName: holder.school.name,
    schoolId: holder.school.id,
    to: holder.email,
    firstName: holder.first_name,
  };
  await enqueueMail(db, mail(who, token));
}
