import { type Kysely, sql } from 'kysely';

// Sent mail keeps no usable link (decision 003: a database leak yields no token). The outbox row of a
// mail that has left keeps who, what and when; its bodies, links and files are dropped. The dev mailbox
// (no SMTP_URL) is a stand-in for the recipients' inboxes, so it gets its own table.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`UPDATE mail_outbox SET text_body = '', html_body = '', links = '[]'::jsonb, attachments = '[]'::jsonb
    WHERE status <> 'pending'`.execute(db);
  await db.schema
    .createTable('dev_mailbox')
    .addColumn('id', 'integer', (c) => c.primaryKey().generatedAlwaysAsIdentity())
    // The outbox's Message-ID: a mail sent again after a lost lease is kept once.
    .addColumn('message_id', 'text', (c) => c.notNull().unique())
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    .addColumn('links', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('attachments', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('dev_mailbox').execute();
}
