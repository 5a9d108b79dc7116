import type { Role } from '@parley/domain/roles';
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

// Table types for Kysely. Instants are timestamptz and arrive as Date.
type CreatedAt = ColumnType<Date, Date | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export type TokenKind = 'access' | 'verify' | 'reset' | 'invite' | 'event' | 'challenge';
/** A file sent with a mail (an .ics calendar entry); content is UTF-8 text. */
/** A file sent with a mail: text as is, or bytes in base64; an inline image carries the cid its HTML shows. */
export type MailAttachment = {
  filename: string;
  contentType: string;
  content: string;
  encoding?: 'base64';
  cid?: string;
};

/** An attachment's bytes. */
export const attachmentBytes = (attachment: MailAttachment) =>
  Buffer.from(attachment.content, attachment.encoding === 'base64' ? 'base64' : 'utf8');
export type MailStatus = 'pending' | 'sent' | 'failed';

export interface SchoolsTable {
  id: Generated<number>;
  name: string;
  timezone: Generated<string>;
  /** When the day-before reminders go, in the school's zone ('18:00:00'; migration 029). */
  reminder_time: Generated<string>;
  verified_at: Timestamp | null;
  address: string | null;
  contact_email: string | null;
  phone: string | null;
  website: string | null;
  created_at: CreatedAt;
  /** A load-test rehearsal's sandbox: the real school it copies (migration 014); null for a real school. */
  sandbox_of: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface UsersTable {
  id: Generated<number>;
  school_id: number;
  email: string;
  title: string | null;
  first_name: string;
  last_name: string;
  status: Generated<number>;
  password_hash: string | null;
  email_verified_at: Timestamp | null;
  login_count: Generated<number>;
  video_conference_url: string | null;
  device_token: string | null;
  settings: Generated<Record<string, Record<string, unknown>>>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

export interface UserRolesTable {
  user_id: number;
  school_id: number;
  role: Role;
  invited_at: Timestamp | null;
  accepted_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface AuthTokensTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  school_id: number;
  kind: TokenKind;
  role: Role | null;
  /** The one event an "event" token (a personal booking link) opens. */
  event_id: number | null;
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
  /** An access token's last request, written at most once a minute; null until its first. */
  last_used_at: Timestamp | null;
  /** Where an access token signed in from (the list of one's sessions). */
  user_agent: string | null;
  ip: string | null;
}

/** Two-factor sign-in of one person: on once enabled_at is set, being set up before (decision 015). */
export interface TwoFactorTable {
  user_id: number;
  school_id: number;
  /** The TOTP secret, sealed (lib/secret-box.ts). */
  secret: string;
  enabled_at: Timestamp | null;
  /** The time step of the last code accepted: no code of that step or earlier is accepted again. */
  last_step: number | null;
  created_at: CreatedAt;
}

export interface RecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  school_id: number;
  code_hash: string;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface TicketsTable {
  id: Generated<number>;
  school_id: number;
  event_id: number;
  booking_id: number;
  /** The attendee: the person booked (a guest's ticket belongs to the attendee who brings them). */
  user_id: number;
  guest_index: Generated<number>;
  code: string;
  status: Generated<'valid' | 'void'>;
  scanned_at: Timestamp | null;
  scanned_by: number | null;
  scanned_device: string | null;
  voided_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface TicketScansTable {
  id: Generated<number>;
  school_id: number;
  event_id: number;
  ticket_id: number;
  action: 'admit' | 'refused' | 'undo' | 'duplicate';
  by_user: number | null;
  device_id: string | null;
  client_nonce: string | null;
  device_time: Timestamp | null;
  /** The answer given, for a retry with the same nonce. */
  answer: ColumnType<unknown, string | null, string | null> | null;
  created_at: CreatedAt;
}

/** What the dev mailbox (no SMTP_URL) received: the stand-in for the recipients' inboxes. */
export interface DevMailboxTable {
  id: Generated<number>;
  message_id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  links: ColumnType<string[], string, string>;
  attachments: ColumnType<MailAttachment[], string, string>;
  created_at: CreatedAt;
}

/** The columns of an outbox row's delivery (mail and push share the worker's lease rules, decision 004). */
interface OutboxDelivery {
  status: Generated<MailStatus>;
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  locked_until: Timestamp | null;
  last_error: string | null;
  sent_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface MailOutboxTable extends OutboxDelivery {
  id: Generated<number>;
  school_id: number | null;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  links: ColumnType<string[], string, string>;
  attachments: ColumnType<MailAttachment[], string | undefined, string>;
}

export interface AppSettingsTable {
  key: string;
  value: string;
  created_at: CreatedAt;
}

/** Where a push goes (migration 029): a browser's Web Push endpoint, or a phone's FCM or APNs token. */
export type PushChannel = 'web' | 'fcm' | 'apns';

export interface PushSubscriptionsTable {
  id: Generated<number>;
  school_id: number;
  user_id: number;
  channel: Generated<PushChannel>;
  /** A Web Push endpoint, or the device token of a native channel. */
  endpoint: string;
  /** Web Push only (null for a native channel). */
  p256dh: string | null;
  auth: string | null;
  user_agent: string | null;
  created_at: CreatedAt;
  last_success_at: Timestamp | null;
}

export type PushUrgency = 'very-low' | 'low' | 'normal' | 'high';

export interface PushOutboxTable extends OutboxDelivery {
  id: Generated<number>;
  school_id: number;
  subscription_id: number;
  payload: ColumnType<Record<string, unknown>, string, string>;
  ttl_seconds: number;
  urgency: PushUrgency;
}

export interface SubjectsTable {
  id: Generated<number>;
  school_id: number;
  name: string;
  created_at: CreatedAt;
}

export interface TeacherSubjectsTable {
  school_id: number;
  teacher_id: number;
  subject_id: number;
}

export interface ParentStudentsTable {
  school_id: number;
  parent_id: number;
  student_id: number;
}

export interface StudentSubjectsTable {
  school_id: number;
  student_id: number;
  subject_id: number;
  teacher_id: number | null;
}

export type EventGroup = 1 | 2 | 3 | 4;
export type BookingStatus = 'booked' | 'cancelled';
/** A local 'HH:MM'–'HH:MM' stretch of a section when a teacher takes no appointments. */
export type LocalSpan = { start: string; end: string };

export interface EventTypesTable {
  id: Generated<number>;
  school_id: number;
  name: string;
  group_int: EventGroup;
  sort_order: Generated<number>;
  created_at: CreatedAt;
}

export interface EventsTable {
  id: Generated<number>;
  school_id: number;
  event_type_id: number;
  name: string;
  status: Generated<number>;
  code: string;
  booking_page_message: string | null;
  opens_at: Timestamp | null;
  closes_at: Timestamp | null;
  slot_minutes: Generated<number>;
  break_minutes: Generated<number>;
  travel_minutes: Generated<number>;
  capacity: Generated<number>;
  guest_allowance: Generated<number>;
  gown_sizes: Generated<string[]>;
  max_appointments_per_child: number | null;
  booking_notifications: Generated<boolean>;
  created_at: CreatedAt;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
  /** Moves on with every change to what a booking reads about the event (migration 021). */
  version: Generated<number>;
  /** The door admits from this many hours before the first section to this many after the last (migration 024). */
  scan_opens_hours_before: Generated<number>;
  scan_closes_hours_after: Generated<number>;
  /** The day-before reminder is sent for this event's bookings (migration 029). */
  day_before_reminder: Generated<boolean>;
  /** Held in person, or by video in Parley (migration 031). */
  meeting_mode: Generated<'in_person' | 'video'>;
}

export interface SectionsTable {
  id: Generated<number>;
  school_id: number;
  event_id: number;
  /** A calendar date; read back as 'YYYY-MM-DD' text (the repository casts it). */
  date: ColumnType<string, string, string>;
  start_time: string;
  end_time: string;
  starts_at: Timestamp;
  ends_at: Timestamp;
  location: string | null;
  created_at: CreatedAt;
}

export interface SectionTeachersTable {
  school_id: number;
  section_id: number;
  teacher_id: number;
  location: string | null;
  unavailable: ColumnType<LocalSpan[], string | undefined, string>;
}

export interface SlotsTable {
  id: Generated<number>;
  school_id: number;
  event_id: number;
  section_id: number;
  teacher_id: number | null;
  starts_at: Timestamp;
  ends_at: Timestamp;
  capacity: Generated<number>;
  booked_count: Generated<number>;
  location: string | null;
}

export interface BookingsTable {
  id: Generated<number>;
  school_id: number;
  event_id: number;
  slot_id: number | null;
  teacher_id: number | null;
  starts_at: Timestamp;
  ends_at: Timestamp;
  parent_id: number | null;
  student_id: number | null;
  subject_id: number | null;
  guests: Generated<number>;
  gown_size: string | null;
  status: Generated<BookingStatus>;
  created_at: CreatedAt;
  cancelled_at: Timestamp | null;
  /** tstzrange(starts_at, ends_at), generated: the exclusion constraints compare it. */
  during: ColumnType<string, never, never>;
  /** Who made it: the parent or student, or an admin on the family's behalf. */
  booked_by: number | null;
  idempotency_key: string | null;
  confirmed_at: Timestamp | null;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** A load-test rehearsal (migration 014): the installation's lock while running, then its record. */
export interface LoadTestRunsTable {
  id: Generated<number>;
  school_id: number;
  event_id: number;
  event_name: string;
  parents: number;
  started_by: number | null;
  status: Generated<'running' | 'finished' | 'failed'>;
  sandbox_school_id: number | null;
  heartbeat_at: Generated<Date>;
  started_at: Generated<Date>;
  finished_at: Date | null;
  cleaned_at: Date | null;
  figures: ColumnType<Record<string, unknown>, string | undefined, string>;
  integrity: ColumnType<Record<string, unknown> | null, string | null | undefined, string | null>;
  failure: string | null;
}

/** Work done in batches outside the request that started it (migration 028, decision 037). */
export interface JobsTable {
  id: Generated<number>;
  school_id: number;
  event_id: number | null;
  kind: 'event-message';
  payload: ColumnType<unknown, string, string>;
  total: number;
  done: Generated<number>;
  /** The last item handled, in the job's order (a user id): the next batch starts after it. */
  cursor: Generated<number>;
  status: Generated<'running' | 'done' | 'failed'>;
  locked_until: Date | null;
  /** How often the job was claimed: a worker holds it while the number it claimed with is still this. */
  claims: Generated<number>;
  failures: Generated<number>;
  last_error: string | null;
  created_at: CreatedAt;
  finished_at: Date | null;
}

/** A person's day-before reminder, queued (migration 029): once per person and day. */
export interface DayBeforeRemindersTable {
  school_id: number;
  user_id: number;
  /** The day of the appointments, in the school's zone. */
  day: string;
  queued_at: CreatedAt;
}

/** A teacher's lateness at an event, on the night (migration 030): 0 is on time. */
export interface TeacherTimingsTable {
  id: Generated<number>;
  school_id: number;
  event_id: number;
  teacher_id: number;
  late_minutes: number;
  updated_at: Generated<Date>;
  updated_by: number | null;
}

/** One signalling message of a video appointment's call, relayed between processes (migration 031). */
export interface CallSignalsTable {
  id: Generated<string>;
  school_id: number;
  booking_id: number;
  from_user: number;
  payload: unknown;
  created_at: CreatedAt;
}

/** An admin invited by the teacher to help in a video appointment's call (migration 033). */
export interface CallInvitationsTable {
  id: Generated<number>;
  school_id: number;
  booking_id: number;
  admin_id: number;
  invited_by: number;
  created_at: CreatedAt;
}

/** A booking's "you're next" push, queued (migration 030): once per booking. */
export interface NextUpNoticesTable {
  booking_id: number;
  school_id: number;
  queued_at: CreatedAt;
}

export interface EventMembersTable {
  school_id: number;
  event_id: number;
  user_id: number;
  created_at: CreatedAt;
}

/** One change an admin or teacher made to someone else's data (decision 014); kept when its object goes. */
export interface AuditEntriesTable {
  id: Generated<number>;
  school_id: number;
  created_at: CreatedAt;
  actor_id: number | null;
  actor_name: string;
  actor_email: string;
  action: string;
  subject_type: 'person' | 'event' | 'booking' | 'ticket';
  subject_id: number;
  subject_label: string;
  event_id: number | null;
  person_ids: ColumnType<number[], number[] | undefined, number[]>;
  detail: ColumnType<Record<string, unknown>, string, string>;
  ip: string | null;
  user_agent: string | null;
}

/** A school's subscription and billing details (migration 013, decision 021). */
export interface SchoolBillingTable {
  school_id: number;
  plan_id: string | null;
  trial_ends_at: Timestamp;
  paid_until: Timestamp | null;
  billing_name: string | null;
  address: string | null;
  tax_number: string | null;
  finance_email: string | null;
  stripe_customer_id: string | null;
  updated_at: ColumnType<Date, Date | string | undefined, Date | string>;
}

/** Who an invoice is addressed to, as it was when issued. */
export type InvoiceParty = {
  name: string;
  address: string;
  taxNumber: string | null;
  email: string | null;
  bankDetails?: string;
};

/** An invoice or credit note: immutable once issued (a trigger), only its payment is recorded. */
export interface InvoicesTable {
  id: Generated<number>;
  school_id: number;
  seller: string;
  number: number;
  kind: 'invoice' | 'credit_note';
  credits_invoice_id: number | null;
  issued_at: ColumnType<Date, Date | string | undefined, never>;
  due_at: Timestamp;
  plan_id: string;
  plan_name: string;
  period_start: Timestamp;
  period_end: Timestamp;
  po_number: string | null;
  currency: string;
  net_minor: number;
  /** numeric: read back as text. */
  tax_rate_percent: ColumnType<string, number, never>;
  tax_minor: number;
  total_minor: number;
  bill_to: ColumnType<InvoiceParty, string, never>;
  seller_details: ColumnType<InvoiceParty, string, never>;
  reason: string | null;
  stripe_session_id: string | null;
  paid_at: Timestamp | null;
  payment_method: 'transfer' | 'card' | null;
}

export interface InvoiceCountersTable {
  seller: string;
  last_number: number;
}

export interface StripeEventsTable {
  id: string;
  type: string;
  received_at: CreatedAt;
}

export interface Database {
  schools: SchoolsTable;
  users: UsersTable;
  user_roles: UserRolesTable;
  auth_tokens: AuthTokensTable;
  two_factor: TwoFactorTable;
  recovery_codes: RecoveryCodesTable;
  mail_outbox: MailOutboxTable;
  dev_mailbox: DevMailboxTable;
  tickets: TicketsTable;
  ticket_scans: TicketScansTable;
  subjects: SubjectsTable;
  teacher_subjects: TeacherSubjectsTable;
  parent_students: ParentStudentsTable;
  student_subjects: StudentSubjectsTable;
  event_types: EventTypesTable;
  events: EventsTable;
  sections: SectionsTable;
  section_teachers: SectionTeachersTable;
  slots: SlotsTable;
  bookings: BookingsTable;
  event_recipients: EventMembersTable;
  event_scanners: EventMembersTable;
  audit_entries: AuditEntriesTable;
  app_settings: AppSettingsTable;
  push_subscriptions: PushSubscriptionsTable;
  push_outbox: PushOutboxTable;
  day_before_reminders: DayBeforeRemindersTable;
  teacher_timings: TeacherTimingsTable;
  next_up_notices: NextUpNoticesTable;
  call_signals: CallSignalsTable;
  call_invitations: CallInvitationsTable;
  jobs: JobsTable;
  load_test_runs: LoadTestRunsTable;
  school_billing: SchoolBillingTable;
  invoices: InvoicesTable;
  invoice_counters: InvoiceCountersTable;
  stripe_events: StripeEventsTable;
}

export type User = Selectable<UsersTable>;
export type School = Selectable<SchoolsTable>;
export type NewMail = Insertable<MailOutboxTable>;
