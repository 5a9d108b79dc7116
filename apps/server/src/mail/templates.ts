import type { Role } from '@parley/domain/roles';
import { NAMED_ROUTES } from '@parley/domain/routes';
import type { OutgoingMail } from './outbox.repository';

// Plain, clear mails: the school's name up top, a few lines, one obvious link (also as text).

type Compose = {
  product: string;
  schoolName: string;
  schoolId: number | null;
  to: string;
  subject: string;
  greeting: string;
  lines: string[];
  action: { label: string; url: string };
  after?: string;
  /** Images shown inline (attachments with these cids), each with a caption and its link: tickets. */
  images?: Array<{ cid: string; caption: string; url: string }>;
};

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

export function composeMail(mail: Compose): OutgoingMail {
  const footer = `Sent by ${mail.product} for ${mail.schoolName}. If you did not expect this email, you can ignore it.`;
  const text = [
    mail.schoolName,
    '',
    mail.greeting,
    '',
    ...mail.lines,
    '',
    `${mail.action.label}: ${mail.action.url}`,
    ...(mail.images ?? []).flatMap((image) => ['', `${image.caption}: ${image.url}`]),
    ...(mail.after ? ['', mail.after] : []),
    '',
    '--',
    footer,
  ].join('\n');
  const html = `<!doctype html><html><body style="margin:0;padding:24px;background:#f4f4f4;font-family:Arial,sans-serif;color:#222">
<div style="max-width:520px;margin:0 auto;background:#fff;border-radius:8px;padding:24px">
<p style="margin:0 0 16px;font-size:18px;font-weight:bold">${escapeHtml(mail.schoolName)}</p>
<p>${escapeHtml(mail.greeting)}</p>
${mail.lines.map((line) => `<p>${escapeHtml(line)}</p>`).join('\n')}
<p style="margin:24px 0"><a href="${escapeHtml(mail.action.url)}" style="background:#1b5e20;color:#fff;padding:12px 20px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(mail.action.label)}</a></p>
<p style="font-size:13px;color:#555">Or open this link: ${escapeHtml(mail.action.url)}</p>
${(mail.images ?? [])
  .map(
    (image) =>
      `<p style="text-align:center"><img src="cid:${escapeHtml(image.cid)}" width="175" height="175" alt="${escapeHtml(image.caption)}" style="background:#fff"><br><strong>${escapeHtml(image.caption)}</strong><br><a href="${escapeHtml(image.url)}">${escapeHtml(image.url)}</a></p>`,
  )
  .join('\n')}
${mail.after ? `<p>${escapeHtml(mail.after)}</p>` : ''}
<p style="font-size:12px;color:#777;border-top:1px solid #eee;padding-top:12px">${escapeHtml(footer)}</p>
</div></body></html>`;
  return {
    schoolId: mail.schoolId,
    to: mail.to,
    subject: mail.subject,
    text,
    html,
    links: [mail.action.url, ...(mail.images ?? []).map((image) => image.url)],
  };
}

export type Who = {
  product: string;
  appUrl: string;
  schoolName: string;
  schoolId: number;
  to: string;
  firstName: string;
};

export function schoolVerificationMail(who: Who, token: string): OutgoingMail {
  return composeMail({
    ...who,
    subject: `Confirm your ${who.product} registration for ${who.schoolName}`,
    greeting: `Hello ${who.firstName},`,
    lines: [
      `Thank you for registering ${who.schoolName} with ${who.product}.`,
      'Please confirm your email address to activate the school account. The link works for 48 hours.',
    ],
    action: { label: 'Verify school account', url: `${who.appUrl}/auth/verify-school?token=${token}` },
  });
}

export function passwordResetMail(who: Who, token: string): OutgoingMail {
  return composeMail({
    ...who,
    subject: `Reset your ${who.product} password`,
    greeting: `Hello ${who.firstName},`,
    lines: ['We received a request to reset your password. The link works for 1 hour and only once.'],
    action: { label: 'Reset password', url: `${who.appUrl}/auth/reset-password?token=${token}` },
    after: 'If you did not ask for this, your password stays as it is.',
  });
}

const acceptPath: Record<Role, string> = {
  admin: '/admins/accept-admin-invite',
  teacher: '/accept-teacher-invite',
  parent: '/accept-parent-invite',
  student: '/accept-student-invite',
};

const roleWords: Record<Role, string> = {
  admin: 'an administrator',
  teacher: 'a teacher',
  parent: 'a parent',
  student: 'a student',
};

export function invitationMail(who: Who, role: Role, token: string): OutgoingMail {
  return composeMail({
    ...who,
    subject: `${who.schoolName} invites you to ${who.product}`,
    greeting: `Hello ${who.firstName},`,
    lines: [
      `${who.schoolName} has invited you to join ${who.product} as ${roleWords[role]}.`,
      'Accept the invitation to set your password. The link works for 7 days.',
    ],
    action: { label: 'Accept invitation', url: `${who.appUrl}${acceptPath[role]}?token=${token}` },
  });
}

/**
 * A role added to an account that already has a password: nothing to accept, so no invitation link, only
 * the news and the way in (the password they have).
 */
export function roleAddedMail(who: Who, roles: Role[]): OutgoingMail {
  const as = roles.map((role) => roleWords[role]).join(' and ');
  return composeMail({
    ...who,
    subject: `${who.schoolName} added you on ${who.product} as ${as}`,
    greeting: `Hello ${who.firstName},`,
    lines: [
      `${who.schoolName} has added you on ${who.product} as ${as}, as well as what you were already.`,
      'Log in with your email and the password you already have.',
    ],
    action: { label: 'Log in', url: `${who.appUrl}${NAMED_ROUTES.login}` },
  });
}

/** Invite to book / reminder for an event: one mail per recipient, with the event's booking page. */
export function eventMessageMail(
  who: Who,
  message: {
    kind: 'inviteToBook' | 'reminder';
    eventName: string;
    times: string[];
    bookingPageMessage: string | null;
    url: string;
  },
): OutgoingMail {
  const invite = message.kind === 'inviteToBook';
  return composeMail({
    ...who,
    subject: invite
      ? `${who.schoolName}: book your place for ${message.eventName}`
      : `Reminder: ${message.eventName}`,
    greeting: `Hello ${who.firstName},`,
    lines: [
      invite
        ? `${who.schoolName} invites you to book for ${message.eventName}.`
        : `This is a reminder about ${message.eventName} at ${who.schoolName}.`,
      ...message.times.map((time) => `When: ${time}`),
      ...(message.bookingPageMessage ? [message.bookingPageMessage] : []),
    ],
    action: { label: invite ? 'Book now' : 'View or change your booking', url: message.url },
  });
}

/** The day before (issue 40): everything the person has at the school tomorrow, in one mail. */
export function dayBeforeReminderMail(
  who: Who,
  reminder: { day: string; lines: string[]; action: { label: string; url: string } },
): OutgoingMail {
  return composeMail({
    ...who,
    subject: `Reminder for tomorrow, ${reminder.day}`,
    greeting: `Hello ${who.firstName},`,
    lines: [`Here is what you have at ${who.schoolName} tomorrow, ${reminder.day}:`, ...reminder.lines],
    action: reminder.action,
  });
}

/** Why a family's bookings were cancelled by the school. */
export type CancelReason = 'timesChanged' | 'eventDeleted' | 'teacherLeft';

/** The school changed or removed an event (or a teacher left), and these bookings of one family were cancelled. */
export function bookingsCancelledMail(
  who: Who,
  change: { eventName: string; reason: CancelReason; bookings: string[]; url: string },
): OutgoingMail {
  const deleted = change.reason === 'eventDeleted';
  const why = {
    eventDeleted: `${who.schoolName} has cancelled ${change.eventName}, so these bookings no longer stand:`,
    timesChanged: `${who.schoolName} changed the times of ${change.eventName}, so these bookings were cancelled:`,
    teacherLeft: `A teacher is no longer taking appointments at ${change.eventName}, so these bookings were cancelled:`,
  }[change.reason];
  return composeMail({
    ...who,
    subject: `${change.eventName}: your booking was cancelled`,
    greeting: `Hello ${who.firstName},`,
    lines: [why, ...change.bookings, ...(deleted ? [] : ['Please choose a new time on the booking page.'])],
    action: deleted
      ? { label: `Open ${who.product}`, url: `${who.appUrl}/home` }
      : { label: 'Book again', url: change.url },
  });
}
