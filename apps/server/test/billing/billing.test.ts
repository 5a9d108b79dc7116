import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BillingView, InvoiceSummary } from '@parley/domain/billing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { attachmentBytes } from '../../src/db/schema';
import { asOwner, asSchool } from '../../src/db/scope';
import {
  operatorCreditNote,
  operatorMarkPaid,
  operatorSchools,
} from '../../src/modules/billing/billing.service';
import catalog from '../../src/modules/billing/catalog.json' with { type: 'json' };
import { booked, bookingPage, evening, freeSlots } from '../booking/booking-helpers';
import { addMember, api, expectStatus, newSchool } from '../directory/directory-helpers';
import { lastMailTo } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';
import { pdfText } from './pdf-text';

// Billing for schools (issue 15): trial at registration, plans, invoices with a PO number (PDF and mail to
// the finance contact), numbering without gaps, immutability, the operator's commands, admins only.

const details = {
  billingName: 'Green Hill Academy Trust',
  address: '12 School Lane\nGreenhill GH1 2AB',
  taxNumber: 'GB123456789',
  financeEmail: 'Finance@GreenHill.example.org',
};

describe('billing', () => {
  let t: TestApp;
  let admin: string;
  let schoolId: number;

  beforeAll(async () => {
    t = await createTestApp();
    const school = await newSchool(t, 'Green Hill Academy');
    admin = school.admin.token;
    schoolId = school.schoolId;
  });
  afterAll(() => t?.close());

  const view = async (token = admin) =>
    expectStatus<BillingView>(await api(t.app).get('billing/view', token), 200);

  it('starts a new school on a free trial, with its usage and the plans of the catalogue', async () => {
    const billing = await view();
    expect(billing.status.state).toBe('trial');
    expect(billing.status.days).toBe(catalog.trialDays);
    expect(billing.planId).toBeNull();
    expect(billing.suggestedPlanId).toBe('small');
    expect(billing.plans.map((plan) => plan.id)).toEqual(catalog.plans.map((plan) => plan.id));
    expect(billing.usage).toEqual({ students: 0, eventsThisYear: expect.any(Number) });
    expect(billing.invoices).toEqual([]);
    expect(billing.cardPayments).toBe(false);
    expect(billing.enforcement).toEqual({ banner: 'none', canCreateEvents: true, restrictsOn: null });
  });

  it('counts students and this year’s events as usage', async () => {
    const before = (await view()).usage;
    await addMember(t, admin, 'student');
    const created = await api(t.app).post('events/create', admin, {
      name: 'Usage evening',
      eventTypeId: (
        await t.db
          .selectFrom('event_types')
          .select('id')
          .where('school_id', '=', schoolId)
          .executeTakeFirstOrThrow()
      ).id,
    });
    const after = (await view()).usage;
    expect(after.students).toBe(before.students + 1);
    expect(after.eventsThisYear).toBe(before.eventsThisYear + (created.statusCode === 200 ? 1 : 0));
  });

  it('names the field of a bad choice or bad details (422) and keeps what was there', async () => {
    const unknown = await api(t.app).post('billing/choose-plan', admin, { planId: 'platinum' });
    expect(expectStatus<{ errors: Record<string, string[]> }>(unknown, 422).errors.planId).toBeDefined();
    const badEmail = await api(t.app).post('billing/update-details', admin, {
      ...details,
      financeEmail: 'nope',
    });
    expect(expectStatus<{ errors: Record<string, string[]> }>(badEmail, 422).errors.financeEmail).toEqual([
      'Invalid email format',
    ]);
    const badPo = await api(t.app).post('billing/request-invoice', admin, { poNumber: 'PO<script>' });
    expect(expectStatus<{ errors: Record<string, string[]> }>(badPo, 422).errors.poNumber).toBeDefined();
    expect((await view()).details.financeEmail).toBeNull();
  });

  it('asks for a plan and the billing details before an invoice', async () => {
    const noPlan = await api(t.app).post('billing/request-invoice', admin, { poNumber: 'PO-1' });
    expect(expectStatus<{ errors: Record<string, string[]> }>(noPlan, 422).errors).toHaveProperty('planId');
    expectStatus(await api(t.app).post('billing/choose-plan', admin, { planId: 'medium' }), 200);
    const noDetails = await api(t.app).post('billing/request-invoice', admin, { poNumber: 'PO-1' });
    expect(Object.keys(expectStatus<{ errors: Record<string, string[]> }>(noDetails, 422).errors)).toEqual([
      'address',
      'financeEmail',
    ]);
    const saved = expectStatus<BillingView>(
      await api(t.app).post('billing/update-details', admin, details),
      200,
    );
    expect(saved.details).toEqual({ ...details, financeEmail: 'finance@greenhill.example.org' });
    expect(saved.planId).toBe('medium');
  });

  let invoice: InvoiceSummary;

  it('issues a numbered invoice with the PO number, mailed to the finance contact with its PDF', async () => {
    invoice = expectStatus<InvoiceSummary>(
      await api(t.app).post('billing/request-invoice', admin, { poNumber: 'PO-2026-0042' }),
      200,
    );
    const medium = catalog.plans.find((plan) => plan.id === 'medium');
    const net = medium?.yearlyPriceMinor ?? 0;
    const total = net + Math.round((net * catalog.taxRatePercent) / 100);
    expect(invoice).toMatchObject({
      kind: 'invoice',
      number: 'PRL-000001',
      poNumber: 'PO-2026-0042',
      totalMinor: total,
      currency: catalog.currency,
      paidAt: null,
      credited: false,
      planName: 'Medium school',
    });
    // The paid year starts where the trial ends.
    const trialEnds = (
      await t.db
        .selectFrom('school_billing')
        .select('trial_ends_at')
        .where('school_id', '=', schoolId)
        .executeTakeFirstOrThrow()
    ).trial_ends_at;
    expect(invoice.periodStart).toBe(trialEnds.toISOString());

    const mail = await lastMailTo(t.db, 'finance@greenhill.example.org');
    expect(mail?.subject).toBe('Invoice PRL-000001 from Parley Software Ltd');
    expect(mail?.text_body).toContain('Purchase order: PO-2026-0042');
    const [pdf] = mail?.attachments ?? [];
    expect(pdf).toMatchObject({ filename: 'invoice-PRL-000001.pdf', contentType: 'application/pdf' });
    const mailed = attachmentBytes(pdf as NonNullable<typeof pdf>);
    const text = await pdfText(mailed);
    for (const expected of [
      'Invoice PRL-000001',
      'Purchase order: PO-2026-0042',
      'Green Hill Academy Trust',
      '12 School Lane',
      'VAT/Tax no. GB123456789',
      'Parley Software Ltd',
      'Medium school',
      `Total ${catalog.currency} 1,188.00`,
      'Reference: PRL-000001',
    ])
      expect(text).toContain(expected);

    // The download is the mailed file, byte for byte: rendered from the stored row alone.
    const download = await api(t.app).get(`billing/invoice-pdf?id=${invoice.id}`, admin);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toBe('attachment; filename="invoice-PRL-000001.pdf"');
    expect(Buffer.compare(download.rawPayload, mailed)).toBe(0);

    const shown = await view();
    expect(shown.invoices).toEqual([invoice]);
    // An invoice waiting for payment does not end the trial.
    expect(shown.status.state).toBe('trial');
  });

  it('keeps one invoice waiting at a time (409)', async () => {
    const again = await api(t.app).post('billing/request-invoice', admin, { poNumber: 'PO-2' });
    expect(expectStatus<{ message: string }>(again, 409).message).toContain('PRL-000001');
  });

  it('refuses to change or delete an issued invoice, in the database itself', async () => {
    await asOwner(async () => {
      await expect(
        t.db.updateTable('invoices').set({ po_number: 'changed' }).where('id', '=', invoice.id).execute(),
      ).rejects.toThrow(/cannot be changed/);
      await expect(
        t.db
          .updateTable('invoices')
          .set({ total_minor: 1, net_minor: 1, tax_minor: 0 })
          .where('id', '=', invoice.id)
          .execute(),
      ).rejects.toThrow(/cannot be changed/);
      await expect(t.db.deleteFrom('invoices').where('id', '=', invoice.id).execute()).rejects.toThrow(
        /cannot be deleted/,
      );
    });
  });

  it('shows another school’s admin nothing of it, and numbers the next seller document without a gap', async () => {
    const other = await newSchool(t, 'Blue Lake School');
    expect((await api(t.app).get(`billing/invoice-pdf?id=${invoice.id}`, other.admin.token)).statusCode).toBe(
      404,
    );
    expect((await view(other.admin.token)).invoices).toEqual([]);
    // Row-level security: the other school's scope sees no row of this one.
    const seen = await asSchool(other.schoolId, () =>
      t.db.selectFrom('invoices').select('id').where('id', '=', invoice.id).execute(),
    );
    expect(seen).toEqual([]);

    // A failed issue (rolled back after taking its number) gives the number back.
    await expect(
      t.db.transaction().execute(async (trx) => {
        await sql`UPDATE invoice_counters SET last_number = last_number + 1`.execute(trx);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expectStatus(await api(t.app).post('billing/choose-plan', other.admin.token, { planId: 'small' }), 200);
    expectStatus(
      await api(t.app).post('billing/update-details', other.admin.token, {
        ...details,
        financeEmail: 'ap@bluelake.example.org',
      }),
      200,
    );
    const second = expectStatus<InvoiceSummary>(
      await api(t.app).post('billing/request-invoice', other.admin.token, {}),
      200,
    );
    expect(second.number).toBe('PRL-000002');
    expect(second.poNumber).toBeNull();
  });

  it('lets the operator mark an invoice paid: active until the end of its year, once', async () => {
    const ctx = { db: t.db, config: t.config };
    const paid = await operatorMarkPaid(ctx, 'PRL-000001');
    expect(paid.paidUntil.toISOString()).toBe(invoice.periodEnd);
    const shown = await view();
    expect(shown.status).toMatchObject({ state: 'active', until: invoice.periodEnd });
    expect(shown.invoices[0]).toMatchObject({ paidAt: expect.any(String), paymentMethod: 'transfer' });
    await expect(operatorMarkPaid(ctx, '1')).rejects.toThrow(/already paid/);
    // The payment is recorded once: not even the owner moves its date afterwards.
    await asOwner(async () => {
      await expect(
        t.db
          .updateTable('invoices')
          .set({ paid_at: new Date(0) })
          .where('id', '=', invoice.id)
          .execute(),
      ).rejects.toThrow(/cannot be changed/);
    });
    const listed = (await operatorSchools(ctx)).find((row) => row.id === schoolId);
    expect(listed).toMatchObject({ plan: 'medium', state: 'active' });
  });

  it('corrects an unpaid invoice with a credit note, after which a new invoice may be asked for', async () => {
    const ctx = { db: t.db, config: t.config };
    await expect(operatorCreditNote(ctx, 'PRL-000001', 'wrong PO')).rejects.toThrow(/is paid/);
    const note = await operatorCreditNote(ctx, 'PRL-000002', 'Wrong purchase order number');
    expect(note).toMatchObject({ kind: 'credit_note', number: 'PRL-000003', totalMinor: expect.any(Number) });
    expect(note.totalMinor).toBeLessThan(0);
    const mail = await lastMailTo(t.db, 'ap@bluelake.example.org');
    expect(mail?.subject).toBe('Credit note PRL-000003 from Parley Software Ltd');
    const text = await pdfText(
      attachmentBytes(mail?.attachments[0] as NonNullable<NonNullable<typeof mail>['attachments'][number]>),
    );
    expect(text).toContain('Credit note PRL-000003');
    expect(text).toContain('Credits invoice: PRL-000002');
    expect(text).toContain('Reason: Wrong purchase order number');
    await expect(operatorCreditNote(ctx, 'PRL-000002', 'again')).rejects.toThrow(/already cancelled/);
  });

  it('answers a teacher, a parent and a student 403 from every billing call, and a stranger 401', async () => {
    const calls: Array<[string, string, unknown?]> = [
      ['GET', 'billing/view'],
      ['POST', 'billing/choose-plan', { planId: 'small' }],
      ['POST', 'billing/update-details', details],
      ['POST', 'billing/request-invoice', { poNumber: 'X' }],
      ['GET', `billing/invoice-pdf?id=${invoice.id}`],
    ];
    for (const role of ['teacher', 'parent', 'student'] as const) {
      const member = await addMember(t, admin, role);
      for (const [method, path, body] of calls) {
        const response =
          method === 'GET'
            ? await api(t.app).get(path, member.token)
            : await api(t.app).post(path, member.token, body);
        expect(`${role} ${path} ${response.statusCode}`).toBe(`${role} ${path} 403`);
      }
    }
    for (const [method, path, body] of calls) {
      const response =
        method === 'GET' ? await api(t.app).get(path) : await api(t.app).post(path, undefined, body);
      expect(response.statusCode).toBe(401);
    }
  });

  it('stops only the creation of new events once overdue past the grace period; families still book', async () => {
    const late = await evening(t, { quick: true, schoolName: 'Late Payers Academy' });
    const create = () =>
      late.http.post('events/create', late.admin.token, {
        name: 'Spring evening',
        eventTypeId: late.types.parentTeacher,
      });
    expectStatus(await create(), 200);
    // The trial ended 45 days ago: 30 days of payment due, then 15 overdue.
    await asOwner(() =>
      t.db
        .updateTable('school_billing')
        .set({ trial_ends_at: sql`now() - interval '45 days'` })
        .where('school_id', '=', late.schoolId)
        .execute(),
    );
    const shown = await view(late.admin.token);
    expect(shown.status).toMatchObject({ state: 'overdue', days: 15 });
    expect(shown.enforcement).toEqual({ banner: 'restricted', canCreateEvents: false, restrictsOn: null });
    expect(expectStatus<{ message: string }>(await create(), 409).message).toMatch(
      /^Creating new events is paused/,
    );

    // The evening whose booking window is open goes on: the parent opens it and books.
    const grid = (await bookingPage(late, late.parent.token, late.code)).grid;
    const teacher = late.teachers[0] as (typeof late.teachers)[number];
    const child = late.children[0] as (typeof late.children)[number];
    const result = await booked(late, late.parent.token, [
      {
        slotId: freeSlots(grid, teacher.id)[0] ?? 0,
        studentId: child.id,
        subjectId: late.subjects[0] ?? null,
      },
    ]);
    expect(result.created).toHaveLength(1);

    // Paying lifts it.
    expectStatus(await api(t.app).post('billing/choose-plan', late.admin.token, { planId: 'small' }), 200);
    expectStatus(
      await api(t.app).post('billing/update-details', late.admin.token, {
        ...details,
        financeEmail: 'late@example.org',
      }),
      200,
    );
    const owed = expectStatus<InvoiceSummary>(
      await api(t.app).post('billing/request-invoice', late.admin.token, {}),
      200,
    );
    await operatorMarkPaid({ db: t.db, config: t.config }, owed.number);
    expect((await view(late.admin.token)).status.state).toBe('active');
    expectStatus(await create(), 200);
  });

  it('refuses a plan too small for the school’s students, from an operator’s own catalogue', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-catalog-'));
    const file = join(dir, 'catalog.json');
    writeFileSync(
      file,
      JSON.stringify({
        ...catalog,
        plans: [
          { id: 'tiny', name: 'Tiny', maxStudents: 1, yearlyPriceMinor: 100 },
          { id: 'any', name: 'Any size', maxStudents: null, yearlyPriceMinor: 900 },
        ],
      }),
    );
    const own = await createTestApp({ env: { BILLING_CATALOG_FILE: file } });
    try {
      const school = await newSchool(own, 'Catalogue School');
      await addMember(own, school.admin.token, 'student');
      await addMember(own, school.admin.token, 'student');
      const shown = expectStatus<BillingView>(
        await api(own.app).get('billing/view', school.admin.token),
        200,
      );
      expect(shown.plans.map((plan) => plan.id)).toEqual(['tiny', 'any']);
      expect(shown.suggestedPlanId).toBe('any');
      const refused = await api(own.app).post('billing/choose-plan', school.admin.token, { planId: 'tiny' });
      expect(expectStatus<{ errors: Record<string, string[]> }>(refused, 422).errors.planId).toEqual([
        'Tiny is for up to 1 students; your school has 2.',
      ]);
    } finally {
      await own.close();
    }
  });
});
