import { randomUUID } from 'node:crypto';
import { PASSWORD, uniqueEmail } from '../factories';

// The route × caller matrix (issue 11): for every route of the API, the status each caller gets when it
// calls with school A's ids. route-matrix.test.ts runs it; a route without a rule here fails that test, and
// so does a rule whose route is gone.
//
// Notation: a rule's `expect` names statuses by caller or by group, the most specific winning:
//   a caller (below) > its group (A, B, links) > all.
// `input` builds the call from school A's objects (query and JSON body); `fresh.*` gives an object of
// school A made for this route, renewed after every 2xx answer, so a call that deletes or uses one up never
// spoils the next caller's call.

/** Who calls. School A owns every id the calls carry; school B is the other tenant. */
export const CALLERS = [
  'anonymous',
  // school B first: a call that wrongly changed A's object would then also show in A's callers' answers
  'bAdmin',
  'bTeacher',
  'bParent',
  'bStudent',
  'bLink',
  // school A
  'teacher',
  'parent',
  'student',
  'teacherParent',
  'otherParent',
  'link',
  'admin',
] as const;
export type Caller = (typeof CALLERS)[number];

/**
 * School A's callers: its admin; T1, a teacher who scans tickets at the ceremony; a parent (a recipient of
 * the evening, with two children) and their child the student; a teacher who is also a parent (a recipient,
 * of another child); a parent whom the evening's recipients leave out; the parent's personal booking link
 * for the evening. School B has the same people and events; its callers are its admin, teacher, parent,
 * student and the parent's link for B's evening.
 */
export const GROUP: Record<Caller, 'anonymous' | 'A' | 'B' | 'links'> = {
  anonymous: 'anonymous',
  admin: 'A',
  teacher: 'A',
  parent: 'A',
  student: 'A',
  teacherParent: 'A',
  otherParent: 'A',
  link: 'links',
  bAdmin: 'B',
  bTeacher: 'B',
  bParent: 'B',
  bStudent: 'B',
  bLink: 'links',
};

/** Whose school a caller is of: its answers must carry nothing of the other school. */
export const SCHOOL_OF: Record<Caller, 'A' | 'B' | null> = {
  anonymous: null,
  admin: 'A',
  teacher: 'A',
  parent: 'A',
  student: 'A',
  teacherParent: 'A',
  otherParent: 'A',
  link: 'A',
  bAdmin: 'B',
  bTeacher: 'B',
  bParent: 'B',
  bStudent: 'B',
  bLink: 'B',
};

export type Expect = Partial<Record<Caller | 'A' | 'B' | 'links' | 'all', number>>;

export type Input = { query?: Record<string, string | number>; body?: unknown };

/** School A's objects, as the inputs use them. */
export type SchoolA = {
  schoolId: number;
  adminId: number;
  adminEmail: string;
  /** T1: teaches the evening's first column, scans tickets at the ceremony. */
  teacherId: number;
  parentId: number;
  parentEmail: string;
  /** The student caller: the parent's first child. */
  studentId: number;
  siblingId: number;
  teacherParentId: number;
  otherParentId: number;
  /** Someone invited who has not accepted yet. */
  pendingEmail: string;
  subjectId: number;
  parentTeacherTypeId: number;
  /** The verify-school token of A's signup, used up by the verification. */
  usedVerifyToken: string;
  /** The parent-teacher evening: recipients the parent and the teacher-parent. */
  evening: { id: number; code: string; sectionId: number; slotId: number; bookingId: number };
  /** A graduation (ticketed, gowns, guests): the parent booked the student with a guest. */
  ceremony: { id: number; bookingId: number };
  /** The student's own ticket at the ceremony (its code changes when tickets are generated again). */
  ticketCode(): Promise<string>;
  /** The same ticket's id: what the door's search shows and a manual check-in names. */
  ticketRowId(): Promise<number>;
  /** A's newest invoice (billing), issued through its admin the first time. */
  invoiceId(): Promise<number>;
  /** A's newest job (a message to the evening's recipients), sent by its admin the first time. */
  jobId(): Promise<number>;
  /** Objects made for this route, renewed after each 2xx answer. */
  fresh: Fresh;
  /** A call as one of the callers, to set the scene for its own call (its answer is not checked). */
  callAs(caller: Caller, method: 'GET' | 'POST', path: string, body?: unknown): Promise<number>;
  /** Objects made once for the whole run (a read that does not use them up). */
  once: Pick<Fresh, 'inviteToken'>;
};

export type Fresh = {
  event(): Promise<number>;
  section(): Promise<{ eventId: number; sectionId: number }>;
  person(role: 'teacher' | 'parent' | 'student'): Promise<number>;
  admin(): Promise<number>;
  subject(): Promise<number>;
  /** A parent recipient of the evening who is none of the callers. */
  recipient(): Promise<number>;
  /** A scanner of the evening who is none of the callers. */
  scanner(): Promise<number>;
  /** A free slot of the evening the student may take (no teacher or time they already have). */
  slot(): Promise<number>;
  /** A live booking of the parent for the student at the evening. */
  booking(): Promise<number>;
  /** The student's ceremony ticket, scanned. */
  scannedTicket(): Promise<string>;
  /** A live invitation token for a new person of that role. */
  inviteToken(role: 'admin' | 'teacher' | 'parent'): Promise<string>;
  /** A live password-reset token of a parent. */
  resetToken(): Promise<string>;
  /** A parent (no caller) holding a live personal link to the evening. */
  linkHolder(): Promise<number>;
  /** The id of a session of A's admin that no caller uses. */
  adminSession(): Promise<number>;
};

export type Rule = {
  expect: Expect;
  input?: (a: SchoolA, caller: Caller) => Input | Promise<Input>;
  /**
   * What may show school A's data to school B's callers:
   * - 'public': the route answers anyone, and B's callers get exactly the anonymous caller's answer;
   * - 'credential': the input carries A's secret (a password, a mailed token): its holder sees its answer.
   */
  openTo?: 'public' | 'credential';
  /** The answer repeats the input's texts (a preview): they are left out of the search for markers. */
  echoes?: true;
};

// ── presets ──────────────────────────────────────────────────────────────────────────────────────────

/** Anyone, whoever calls. */
const everyone = (status = 200): Expect => ({ all: status });
/** Any signed-in user, about themselves or their own school; a link is no session. */
const signedIn = (status = 200): Expect => ({ all: status, anonymous: 401, links: 401 });
/**
 * The school's admins only: 401 without a session, 403 for the other roles of either school, and for B's
 * admin `otherAdmin`: 404 when the call names A's object, 200 when it only reads or makes B's own.
 */
const adminOnly = (otherAdmin: number, ok = 200): Expect => ({
  all: 403,
  anonymous: 401,
  links: 401,
  admin: ok,
  bAdmin: otherAdmin,
});
/** The booking calls of a family (session or personal link) about A's evening; B's callers learn nothing. */
const familyCall = (expect: Expect): Expect => ({ anonymous: 401, B: 404, bLink: 404, ...expect });

const key = () => randomUUID();
const ticketed = async (a: SchoolA) => ({ eventId: a.ceremony.id, ticketId: await a.ticketCode() });

export const RULES: Record<string, Rule> = {
  // ── service ────────────────────────────────────────────────────────────────────────────────────────
  'GET /api/health': { expect: everyone() },
  'GET /api/ready': { expect: everyone() },
  // Prometheus text for this machine (or METRICS_TOKEN): no session opens it from elsewhere.
  'GET /api/metrics': { expect: everyone(403) },
  'GET /api/site/config': { expect: everyone() },

  // ── accounts: public; a mailed token or a password is the credential ───────────────────────────────
  'POST /api/site/signup': {
    expect: everyone(),
    input: () => ({
      body: {
        subscriberName: 'Matrix Signup School',
        firstName: 'Sam',
        lastName: 'Signup',
        email: uniqueEmail('signup'),
        password: PASSWORD,
      },
    }),
  },
  'GET /api/users/search-email-for-signup': {
    expect: everyone(),
    input: (a) => ({ query: { q: a.adminEmail } }),
  },
  // A's verification token, spent by A's own verification: the same answer for everyone.
  // A spent verify-school token only says the school is verified; verify-email finds no live token.
  'GET /api/site/verify-school': {
    expect: everyone(200),
    input: (a) => ({ query: { token: a.usedVerifyToken } }),
  },
  'GET /api/site/verify-email': {
    expect: everyone(400),
    input: (a) => ({ query: { token: a.usedVerifyToken } }),
  },
  'POST /api/site/resend-school-verification': {
    expect: everyone(),
    input: (a) => ({ body: { email: a.adminEmail } }),
  },
  'POST /api/user/login': {
    expect: everyone(),
    openTo: 'credential',
    input: (a) => ({ body: { email: a.adminEmail, password: PASSWORD } }),
  },
  // Ends the caller's own session, if any (the matrix gives the caller a new one afterwards).
  'POST /api/user/logout': { expect: everyone() },
  // Sets this browser's page cookie to the caller's own session (decision 028).
  'POST /api/user/page-session': { expect: signedIn() },
  'POST /api/user/request-password-reset': {
    expect: everyone(),
    input: (a) => ({ body: { email: a.parentEmail } }),
  },
  'POST /api/user/reset-password': {
    expect: everyone(),
    openTo: 'credential',
    input: async (a) => ({ query: { token: await a.fresh.resetToken() }, body: { password: PASSWORD } }),
  },

  // ── invitations: the invitation token is the credential ─────────────────────────────────────────────
  'GET /api/users/accept-admin-invite': {
    expect: everyone(),
    openTo: 'credential',
    input: async (a) => ({ query: { token: await a.once.inviteToken('admin') } }),
  },
  'GET /api/users/accept-teacher-invite': {
    expect: everyone(),
    openTo: 'credential',
    input: async (a) => ({ query: { token: await a.once.inviteToken('teacher') } }),
  },
  'GET /api/users/accept-parent-invite': {
    expect: everyone(),
    openTo: 'credential',
    input: async (a) => ({ query: { token: await a.once.inviteToken('parent') } }),
  },
  // A parent's invitation does not open the student's page (the role is part of the link).
  'GET /api/users/accept-student-invite': {
    expect: everyone(400),
    input: async (a) => ({ query: { token: await a.once.inviteToken('parent') } }),
  },
  'POST /api/users/set-admin-password': {
    expect: everyone(),
    openTo: 'credential',
    input: async (a) => ({ body: { token: await a.fresh.inviteToken('admin'), password: PASSWORD } }),
  },
  'POST /api/users/set-teacher-password': {
    expect: everyone(),
    openTo: 'credential',
    input: async (a) => ({ body: { token: await a.fresh.inviteToken('teacher'), password: PASSWORD } }),
  },
  'POST /api/users/set-new-password': {
    expect: everyone(),
    openTo: 'credential',
    input: async (a) => ({ body: { token: await a.fresh.inviteToken('parent'), password: PASSWORD } }),
  },
  'POST /api/user/resend-invitation': {
    expect: everyone(),
    input: (a) => ({ body: { email: a.pendingEmail } }),
  },

  // ── the signed-in user ─────────────────────────────────────────────────────────────────────────────
  'GET /api/users/data': { expect: signedIn() },
  'GET /api/site/index': { expect: signedIn() },
  'GET /api/site/school': { expect: signedIn() },
  'GET /api/users/settings': { expect: signedIn() },
  'POST /api/users/update-settings': {
    expect: signedIn(),
    input: () => ({ body: { display: { theme: 'dark' } } }),
  },
  // Web Push (issue 12): the key is public; a subscription is the caller's own (push/push.test.ts proves
  // another school cannot remove it).
  'GET /api/site/push-key': { expect: everyone() },
  'POST /api/user/push-subscription': {
    expect: signedIn(),
    input: (_a, caller) => ({
      body: {
        endpoint: `https://fcm.googleapis.com/fcm/send/matrix-${caller}`,
        keys: { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) },
      },
    }),
  },
  'POST /api/user/remove-push-subscription': {
    expect: signedIn(),
    input: () => ({ body: { endpoint: 'https://fcm.googleapis.com/fcm/send/matrix-parent' } }),
  },
  'POST /api/users/register-token': {
    expect: signedIn(),
    input: () => ({ body: { deviceToken: 'matrix-device-token' } }),
  },
  // Only the admins have a password here (the others were made without one): 422 names the field.
  'POST /api/users/change-password': {
    expect: { ...signedIn(422), admin: 200, bAdmin: 200 },
    input: () => ({ body: { currentPassword: PASSWORD, password: PASSWORD } }),
  },
  // One's own record, or any of the school's for its admins; another school's person is not found.
  'GET /api/users/view': {
    expect: { ...signedIn(403), admin: 200, B: 404 },
    input: (a) => ({ query: { id: a.adminId } }),
  },
  'POST /api/users/update': {
    expect: { ...signedIn(403), admin: 200, B: 404 },
    input: (a) => ({ query: { id: a.adminId }, body: { title: null } }),
  },

  // ── one's own sessions and two-factor sign-in ──────────────────────────────────────────────────────
  // A made-up challenge: the same refusal for everyone (the two-factor tests sign in with real ones).
  'POST /api/user/login-second-factor': {
    expect: everyone(400),
    input: () => ({ body: { challenge: 'x'.repeat(43), code: '123456' } }),
  },
  'GET /api/user/sessions': { expect: signedIn() },
  'POST /api/user/end-other-sessions': { expect: signedIn() },
  // A session by id, one's own only: A's admin ends a spare one of theirs; to anyone else it is not found.
  'POST /api/user/end-session': {
    expect: { ...signedIn(404), admin: 200 },
    input: async (a) => ({ body: { id: await a.fresh.adminSession() } }),
  },
  'GET /api/user/two-factor': { expect: signedIn() },
  // Admins turn it on for their own account.
  'POST /api/user/start-two-factor': { expect: adminOnly(200) },
  // The caller has just started; a wrong code is refused.
  'POST /api/user/confirm-two-factor': {
    expect: adminOnly(422, 422),
    input: async (a, caller) => {
      await a.callAs(caller, 'POST', '/api/user/start-two-factor');
      return { body: { code: '000000' } };
    },
  },
  // Nobody has it on.
  'POST /api/user/renew-recovery-codes': {
    expect: signedIn(409),
    input: () => ({ body: { password: PASSWORD } }),
  },
  'POST /api/user/turn-off-two-factor': {
    expect: signedIn(409),
    input: () => ({ body: { password: PASSWORD } }),
  },

  // ── the audit trail (admins) ───────────────────────────────────────────────────────────────────────
  'GET /api/audit/person': { expect: adminOnly(404), input: (a) => ({ query: { id: a.parentId } }) },
  'GET /api/audit/event': { expect: adminOnly(404), input: (a) => ({ query: { id: a.evening.id } }) },
  'GET /api/audit/export': {
    expect: adminOnly(404),
    input: (a) => ({ query: { eventId: a.evening.id } }),
  },

  // ── the load-test rehearsal (admins; B's admin cannot name A's event) ──────────────────────────────
  'GET /api/load-test/events': { expect: adminOnly(200) },
  'GET /api/load-test/status': { expect: adminOnly(200) },
  'POST /api/load-test/start': {
    expect: adminOnly(404),
    input: (a) => ({ body: { eventId: a.evening.id, parents: 1 } }),
  },

  // ── the directory (admins) ─────────────────────────────────────────────────────────────────────────
  'GET /api/users/admins': { expect: adminOnly(200) },
  'GET /api/users/teachers': { expect: adminOnly(200) },
  'GET /api/users/parents': { expect: adminOnly(200) },
  'GET /api/users/students': { expect: adminOnly(200) },
  'GET /api/user/search-email': {
    expect: adminOnly(200),
    input: () => ({ query: { q: 'alphmark' } }),
  },
  'GET /api/users/search-email': {
    expect: adminOnly(200),
    input: () => ({ query: { q: 'alphmark' } }),
  },
  'GET /api/users/search-can-scan-users': {
    expect: adminOnly(200),
    input: () => ({ query: { q: 'alphmark' } }),
  },
  // Another school's subject finds no teachers, as a missing one.
  'GET /api/users/search-teachers-for-subject': {
    expect: adminOnly(200),
    input: (a) => ({ query: { subject_id: a.subjectId } }),
  },
  'GET /api/users/view-admin-for-admin': {
    expect: adminOnly(404),
    input: (a) => ({ query: { id: a.adminId } }),
  },
  'GET /api/users/view-teacher-for-admin': {
    expect: adminOnly(404),
    input: (a) => ({ query: { id: a.teacherId } }),
  },
  'GET /api/users/view-parent-for-admin': {
    expect: adminOnly(404),
    input: (a) => ({ query: { id: a.parentId } }),
  },
  'GET /api/users/view-student-for-admin': {
    expect: adminOnly(404),
    input: (a) => ({ query: { id: a.studentId } }),
  },
  // Made in the caller's own school; B's admin cannot link A's subjects, children or parents (422).
  'POST /api/users/invite-admin': {
    expect: adminOnly(200),
    input: () => ({ body: { email: uniqueEmail('matrix-admin'), firstName: 'Max', lastName: 'Matrix' } }),
  },
  'POST /api/users/create-teacher': {
    expect: adminOnly(422),
    input: (a) => ({
      body: {
        email: uniqueEmail('matrix-teacher'),
        firstName: 'Max',
        lastName: 'Matrix',
        subjectIds: [a.subjectId],
        sendInvite: false,
      },
    }),
  },
  'POST /api/users/create-parent': {
    expect: adminOnly(422),
    input: (a) => ({
      body: {
        email: uniqueEmail('matrix-parent'),
        firstName: 'Max',
        lastName: 'Matrix',
        studentIds: [a.siblingId],
        sendInvite: false,
      },
    }),
  },
  'POST /api/users/create-student': {
    expect: adminOnly(422),
    input: (a) => ({
      body: {
        email: uniqueEmail('matrix-student'),
        firstName: 'Max',
        lastName: 'Matrix',
        parentIds: [a.otherParentId],
        sendInvite: false,
      },
    }),
  },
  'POST /api/users/update-teacher': {
    expect: adminOnly(404),
    input: (a) => ({ query: { id: a.teacherId }, body: { title: 'Dr' } }),
  },
  'POST /api/users/update-parent': {
    expect: adminOnly(404),
    input: (a) => ({ query: { id: a.parentId }, body: { title: 'Mx' } }),
  },
  'POST /api/users/update-student': {
    expect: adminOnly(404),
    input: (a) => ({ query: { id: a.studentId }, body: { lastName: 'Alphmark student' } }),
  },
  'POST /api/users/delete': {
    expect: adminOnly(404),
    input: async (a) => ({ query: { id: await a.fresh.person('parent'), role: 'parent' } }),
  },
  'POST /api/users/remove-admin': {
    expect: adminOnly(404),
    input: async (a) => ({ body: { id: await a.fresh.admin() } }),
  },
  'POST /api/users/revoke-booking-links': {
    expect: adminOnly(404),
    input: async (a) => ({ body: { id: await a.fresh.linkHolder() } }),
  },
  // A preview: nothing is written. The CSV names A's subject, unknown in B.
  'POST /api/users/bulk-add-teachers': {
    expect: adminOnly(200),
    input: () => ({
      body: { csv: 'first_name,last_name,email,subjects\nMax,Matrix,max.bulk@example.org,Maths\n' },
    }),
  },
  // The row names A's parent by email: B's preview says the address is another school's, and repeats it.
  'POST /api/users/bulk-add-students': {
    expect: adminOnly(200),
    echoes: true,
    input: (a) => ({
      body: {
        csv: `student_first_name,student_last_name,student_email,parent_first_name,parent_last_name,parent_email\nMo,Matrix,mo.bulk@example.org,Pat,Parent,${a.parentEmail}\n`,
      },
    }),
  },

  // ── subjects and the school (admins) ───────────────────────────────────────────────────────────────
  'GET /api/subjects/index': { expect: adminOnly(200) },
  'GET /api/subjects/view': { expect: adminOnly(404), input: (a) => ({ query: { id: a.subjectId } }) },
  'POST /api/subjects/create': {
    expect: adminOnly(200),
    input: () => ({ body: { name: `Matrix subject ${key().slice(0, 8)}` } }),
  },
  'POST /api/subjects/update': {
    expect: adminOnly(404),
    input: (a) => ({ query: { id: a.subjectId }, body: { name: 'Alphmark Maths' } }),
  },
  'POST /api/subjects/delete': {
    expect: adminOnly(404),
    input: async (a) => ({ query: { id: await a.fresh.subject() } }),
  },
  // The caller's own school: B's admin renames B (to its own name).
  'POST /api/site/update-school': {
    expect: adminOnly(200),
    input: (_a, caller) => ({
      body: {
        name: SCHOOL_OF[caller] === 'B' ? 'Betamark Academy' : 'Alphmark Academy',
        timezone: 'Europe/London',
      },
    }),
  },

  // ── events (admins) ────────────────────────────────────────────────────────────────────────────────
  'GET /api/events/index': { expect: adminOnly(200) },
  'GET /api/events/current': { expect: adminOnly(200) },
  'GET /api/events/get-all-parents': { expect: adminOnly(200) },
  'GET /api/events/get-all-students': { expect: adminOnly(200) },
  // A's event type is unknown in B.
  'POST /api/events/create': {
    expect: adminOnly(422),
    input: (a) => ({ body: { name: 'Matrix event', eventTypeId: a.parentTeacherTypeId } }),
  },
  'GET /api/events/view': { expect: adminOnly(404), input: (a) => ({ query: { id: a.evening.id } }) },
  'GET /api/events/recipients': {
    expect: adminOnly(404),
    input: (a) => ({ query: { eventId: a.evening.id } }),
  },
  'GET /api/events/recipient-counts': {
    expect: adminOnly(404),
    input: (a) => ({ query: { eventId: a.evening.id } }),
  },
  'GET /api/events/slots': {
    expect: adminOnly(404),
    input: (a) => ({ query: { eventId: a.evening.id } }),
  },
  'GET /api/events/bookings': {
    expect: adminOnly(404),
    input: (a) => ({ query: { eventId: a.evening.id, cancelled: 1 } }),
  },
  'POST /api/events/update': {
    expect: adminOnly(404),
    input: (a) => ({ query: { id: a.evening.id }, body: { bookingPageMessage: 'Alphmark welcome' } }),
  },
  'POST /api/events/update-booking-notification-status': {
    expect: adminOnly(404),
    input: (a) => ({ query: { id: a.evening.id }, body: { bookingNotifications: false } }),
  },
  'POST /api/events/delete': {
    expect: adminOnly(404),
    input: async (a) => ({ query: { id: await a.fresh.event() }, body: { confirm: true } }),
  },
  'POST /api/events/create-section': {
    expect: adminOnly(404),
    input: async (a) => ({
      query: { eventId: await a.fresh.event() },
      body: { date: '2031-03-04', start: '09:00', end: '10:00', location: 'Alphmark annex' },
    }),
  },
  'POST /api/events/update-section': {
    expect: adminOnly(404),
    input: async (a) => ({
      query: { id: (await a.fresh.section()).sectionId },
      body: { date: '2031-03-05', start: '09:00', end: '10:00', location: 'Alphmark annex' },
    }),
  },
  'POST /api/events/delete-section': {
    expect: adminOnly(404),
    input: async (a) => {
      const { eventId, sectionId } = await a.fresh.section();
      return { query: { eventId, sectionId }, body: { confirm: true } };
    },
  },
  'POST /api/events/add-recipients': {
    expect: adminOnly(404),
    input: async (a) => ({
      query: { eventId: a.evening.id, saveme: 1 },
      body: { userIds: [await a.fresh.person('parent')] },
    }),
  },
  'POST /api/events/remove-recipient': {
    expect: adminOnly(404),
    input: async (a) => ({ query: { eventId: a.evening.id }, body: { userId: await a.fresh.recipient() } }),
  },
  'POST /api/events/update-can-scan-user-ids': {
    expect: adminOnly(404),
    input: async (a) => ({
      query: { id: a.evening.id },
      body: { canScanUserIds: [await a.fresh.person('teacher')] },
    }),
  },
  'POST /api/events/remove-can-scan-user': {
    expect: adminOnly(404),
    input: async (a) => ({ query: { eventId: a.evening.id }, body: { userId: await a.fresh.scanner() } }),
  },
  'GET /api/events/download-bookings': {
    expect: adminOnly(404),
    input: (a) => ({ query: { eventId: a.evening.id } }),
  },
  'POST /api/events/update-slot-all': {
    expect: adminOnly(404),
    input: (a) => ({ query: { eventId: a.evening.id }, body: { location: 'Alphmark hall' } }),
  },
  'POST /api/events/update-slot-location': {
    expect: adminOnly(404),
    input: (a) => ({ body: { slotId: a.evening.slotId, location: 'Alphmark hall' } }),
  },
  'POST /api/message-types/send': {
    expect: adminOnly(404),
    input: (a) => ({
      query: { eventId: a.evening.id },
      body: { messageTypeName: 'reminder', audience: 'notBooked' },
    }),
  },
  'POST /api/message-types/send-to-single-recipient': {
    expect: adminOnly(404),
    input: (a) => ({ body: { eventId: a.evening.id, userId: a.parentId, messageTypeName: 'reminder' } }),
  },
  'GET /api/jobs/view': {
    expect: adminOnly(404),
    input: async (a) => ({ query: { id: await a.jobId() } }),
  },
  'GET /api/jobs/of-event': {
    expect: adminOnly(404),
    input: (a) => ({ query: { eventId: a.evening.id } }),
  },

  // ── booking: families (a session or a personal link), and the admin's actions ──────────────────────
  // The page by its code is public: B's callers see what an anonymous visitor sees. A family the evening's
  // recipients leave out is refused.
  'GET /api/events/book-event': {
    expect: { all: 200, otherParent: 403 },
    openTo: 'public',
    input: (a) => ({ query: { code: a.evening.code } }),
  },
  'GET /api/events/booking-view': {
    expect: familyCall({ all: 200, otherParent: 403 }),
    input: (a) => ({ query: { eventId: a.evening.id } }),
  },
  // Staff are nobody's family (403); the teacher-parent asks about a child not theirs (422).
  'GET /api/events/user-slots-for-pt': {
    expect: familyCall({ all: 200, admin: 403, teacher: 403, otherParent: 403 }),
    input: (a) => ({ query: { eventId: a.evening.id } }),
  },
  'POST /api/events/booking-data-for-student': {
    expect: familyCall({ all: 200, admin: 403, teacher: 403, otherParent: 403, teacherParent: 422 }),
    input: (a) => ({ query: { eventId: a.evening.id }, body: { studentId: a.studentId } }),
  },
  'POST /api/events/data-for-subject-teacher-selector': {
    expect: familyCall({ all: 200, otherParent: 403 }),
    input: (a) => ({ body: { eventId: a.evening.id } }),
  },
  'POST /api/events/arrange-slots': {
    expect: familyCall({ all: 200, admin: 403, teacher: 403, otherParent: 403, teacherParent: 422 }),
    input: (a) => ({
      query: { eventId: a.evening.id },
      body: { items: [{ studentId: a.studentId, teacherId: a.teacherId }] },
    }),
  },
  // B's admin and teacher are refused as nobody's family before the event is looked up.
  'POST /api/events/update-slot-for-booking': {
    expect: familyCall({
      all: 200,
      admin: 403,
      teacher: 403,
      otherParent: 403,
      teacherParent: 422,
      bAdmin: 403,
      bTeacher: 403,
    }),
    input: async (a) => ({
      query: { id: a.evening.id },
      body: { items: [{ slotId: await a.fresh.slot(), studentId: a.studentId }], idempotencyKey: key() },
    }),
  },
  // The family's own booking, or any for the admin; someone else's is not found.
  'POST /api/events/remove-booking': {
    expect: familyCall({ all: 200, teacher: 404, teacherParent: 404, otherParent: 404 }),
    input: async (a) => ({ query: { eventId: a.evening.id }, body: { bookingId: await a.fresh.booking() } }),
  },
  // The ceremony: the evening's link does not open it (404).
  'POST /api/events/update-gown-size': {
    expect: familyCall({
      all: 200,
      admin: 403,
      teacher: 403,
      teacherParent: 404,
      otherParent: 404,
      link: 404,
    }),
    input: (a) => ({
      query: {
        eventId: a.ceremony.id,
        studentId: a.studentId,
        gownSizeId: 'M',
        userSlotId: a.ceremony.bookingId,
      },
    }),
  },
  // Staff get the event's times; a family its appointments; a family left out nothing.
  'GET /api/events/calendar-file': {
    expect: familyCall({ all: 200, otherParent: 403 }),
    input: (a) => ({ query: { eventId: a.evening.id } }),
  },
  // B's admin names A's parent, unknown in B (422, as a missing one).
  'POST /api/events/update-slot-by-admin': {
    expect: adminOnly(422),
    input: async (a) => ({
      query: { id: a.evening.id },
      body: { slotId: await a.fresh.slot(), parentId: a.parentId, studentId: a.studentId },
    }),
  },
  'POST /api/events/confirm-booking': {
    expect: adminOnly(404),
    input: (a) => ({ query: { eventId: a.evening.id }, body: { bookingId: a.evening.bookingId } }),
  },
  // T1's own schedule, or any for the admin.
  'GET /api/events/details-teacher': {
    expect: { ...signedIn(403), admin: 200, teacher: 200, bAdmin: 404 },
    input: (a) => ({ query: { eventId: a.evening.id, teacherId: a.teacherId } }),
  },
  // T1's own lateness, or any teacher's for the admin (issue 41); a teacher of A for T1 is refused.
  'POST /api/events/running-late': {
    expect: { ...signedIn(403), admin: 200, teacher: 200, bAdmin: 404 },
    input: (a) => ({ body: { eventId: a.evening.id, teacherId: a.teacherId, minutes: 5 } }),
  },
  // A video call (issue 41): the booking's teacher and family are told the evening is held in person
  // (409); for anyone else, an admin not invited to help included, the appointment does not exist.
  'GET /api/calls/join': {
    expect: { all: 404, anonymous: 401, teacher: 409, parent: 409, student: 409, link: 409 },
    input: (a) => ({ query: { bookingId: a.evening.bookingId } }),
  },
  'POST /api/calls/invite': {
    // Teachers only; of them, the booking's own is told the evening is held in person.
    expect: { ...signedIn(403), teacher: 409, teacherParent: 404, bTeacher: 404 },
    input: (a) => ({ body: { bookingId: a.evening.bookingId, adminId: a.adminId } }),
  },
  // The live channel is a WebSocket: a plain request is told to upgrade (its hello is its credential).
  'GET /api/live': { expect: everyone(426) },

  // ── tickets ────────────────────────────────────────────────────────────────────────────────────────
  // One's own ticket, a child's, or any for the admin.
  'GET /api/tickets/get-event-ticket': {
    expect: { ...signedIn(403), admin: 200, parent: 200, student: 200, B: 404 },
    input: (a) => ({ query: { eventId: a.ceremony.id, userId: a.studentId } }),
  },
  // The door: admins and the event's scanners (T1). A's code is no ticket of B's: B's admin is told so
  // (200, valid false); B's others may scan nothing.
  'GET /api/tickets/validate-ticket': {
    expect: { ...signedIn(403), admin: 200, teacher: 200, bAdmin: 200 },
    input: async (a) => ({ query: { ticketId: await a.ticketCode() } }),
  },
  'POST /api/tickets/scan-ticket': {
    expect: { ...signedIn(403), admin: 200, teacher: 200, bAdmin: 200 },
    input: async (a) => ({ body: { ticketId: await a.ticketCode() } }),
  },
  // A manual check-in by ticket id: whoever may scan at A's door; B's callers name an event not theirs.
  'POST /api/tickets/check-in': {
    expect: { ...signedIn(403), admin: 200, teacher: 200, B: 404 },
    input: async (a) => ({ body: { eventId: a.ceremony.id, id: await a.ticketRowId() } }),
  },
  'POST /api/tickets/undo-scan': {
    expect: adminOnly(404),
    input: async (a) => ({ body: { ticketId: await a.fresh.scannedTicket() } }),
  },
  'POST /api/tickets/generate-tickets': {
    expect: adminOnly(404),
    input: (a) => ({ body: { eventId: a.ceremony.id, userIds: [a.studentId] } }),
  },
  'GET /api/tickets/offline-list': {
    expect: { ...signedIn(403), admin: 200, teacher: 200, B: 404 },
    input: (a) => ({ query: { eventId: a.ceremony.id } }),
  },
  'POST /api/tickets/sync-scans': {
    expect: { ...signedIn(403), admin: 200, teacher: 200, B: 404 },
    input: async (a) => {
      const { eventId, ticketId } = await ticketed(a);
      return {
        body: {
          eventId,
          deviceId: 'matrix-door',
          scans: [{ ticketId, clientNonce: key(), scannedAt: new Date().toISOString() }],
        },
      };
    },
  },
  'GET /api/tickets/door': {
    expect: { ...signedIn(403), admin: 200, teacher: 200, B: 404 },
    input: (a) => ({ query: { eventId: a.ceremony.id } }),
  },

  // ── billing (issue 15): the school's admins only; B's admin reads and changes B's own ────────────────
  'GET /api/billing/view': { expect: adminOnly(200) },
  'POST /api/billing/choose-plan': { expect: adminOnly(200), input: () => ({ body: { planId: 'small' } }) },
  'POST /api/billing/update-details': {
    expect: adminOnly(200),
    input: () => ({
      body: { billingName: null, address: '2 Matrix Lane', taxNumber: null, financeEmail: 'pay@example.org' },
    }),
  },
  // A's admin already has an invoice waiting (issued by the input): 409; B's, set up by the two rules above: 200.
  'POST /api/billing/request-invoice': {
    expect: adminOnly(200, 409),
    input: async (a) => {
      await a.invoiceId();
      return { body: { poNumber: 'PO-1' } };
    },
  },
  'GET /api/billing/invoice-pdf': {
    expect: adminOnly(404),
    input: async (a) => ({ query: { id: await a.invoiceId() } }),
  },
  // Card payment: this app runs invoice-only (no Stripe keys), which the admins are told (409); the webhook
  // then listens to no one (404). billing/card.test.ts runs them against a Stripe stand-in.
  'POST /api/billing/checkout': { expect: adminOnly(409, 409) },
  'POST /api/billing/portal': { expect: adminOnly(409, 409) },
  'POST /api/billing/stripe-webhook': {
    expect: everyone(404),
    input: () => ({ body: { id: 'evt_matrix' } }),
  },

  // ── the dev mailbox: loopback only (every call here comes from another address) ────────────────────
  'GET /api/dev/mailbox': { expect: everyone(404) },
  'GET /api/dev/mailbox/view': { expect: everyone(404), input: () => ({ query: { id: 1 } }) },
  'GET /api/dev/mailbox/attachment': {
    expect: everyone(404),
    input: () => ({ query: { id: 1, index: 0 } }),
  },
};
