import type { Role } from '@parley/domain/roles';
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

// Table types for Kysely. Instants are timestamptz and arrive as Date.
type CreatedAt = ColumnType<Date, Date | undefined, never>;
type Timestamp = ColumnType<Date, Date | string, Date | string>;

export type TokenKind = 'access' | 'verify' | 'reset' | 'invite';
export type MailStatus = 'pending' | 'sent' | 'failed';

export interface SchoolsTable {
  id: Generated<number>;
  name: string;
  timezone: Generated<string>;
  verified_at: Timestamp | null;
  address: string | null;
  contact_email: string | null;
  phone: string | null;
  website: string | null;
  created_at: CreatedAt;
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
  expires_at: Timestamp;
  used_at: Timestamp | null;
  created_at: CreatedAt;
}

export interface MailOutboxTable {
  id: Generated<number>;
  school_id: number | null;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  links: ColumnType<string[], string, string>;
  status: Generated<MailStatus>;
  attempts: Generated<number>;
  next_attempt_at: ColumnType<Date, Date | string | undefined, Date | string>;
  locked_until: Timestamp | null;
  last_error: string | null;
  sent_at: Timestamp | null;
  created_at: CreatedAt;
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

export interface Database {
  schools: SchoolsTable;
  users: UsersTable;
  user_roles: UserRolesTable;
  auth_tokens: AuthTokensTable;
  mail_outbox: MailOutboxTable;
  subjects: SubjectsTable;
  teacher_subjects: TeacherSubjectsTable;
  parent_students: ParentStudentsTable;
  student_subjects: StudentSubjectsTable;
}

export type User = Selectable<UsersTable>;
export type School = Selectable<SchoolsTable>;
export type NewMail = Insertable<MailOutboxTable>;
