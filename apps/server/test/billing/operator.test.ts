import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { BillingView } from '@parley/domain/billing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { asSystem } from '../../src/db/scope';
import { runOperator } from '../../src/operator/operator';
import { api, expectStatus, newSchool } from '../directory/directory-helpers';
import { lastMailTo } from '../mailbox';
import { createTestApp, type TestApp } from '../test-app';

// The operator's command line (issue 15): the commands against a school's real data, and the process.

describe('npm run operator', () => {
  let t: TestApp;
  let admin: string;
  let schoolId: number;
  const run = async (...args: string[]) => {
    const lines: string[] = [];
    const code = await asSystem(() =>
      runOperator({ db: t.db, config: t.config }, args, (line) => lines.push(line)),
    );
    return { code, out: lines.join('\n') };
  };

  beforeAll(async () => {
    t = await createTestApp();
    const school = await newSchool(t, 'Operator Grammar');
    admin = school.admin.token;
    schoolId = school.schoolId;
  });
  afterAll(() => t?.close());

  it('lists the schools with their plan and status', async () => {
    const { code, out } = await run('schools');
    expect(code).toBe(0);
    expect(out).toMatch(
      new RegExp(`^${schoolId}\\tOperator Grammar\\t-\\ttrial\\t\\d{4}-\\d{2}-\\d{2}\\tyes$`, 'm'),
    );
  });

  it('sets a plan, which the admin then sees', async () => {
    expect(await run('set-plan', String(schoolId), 'large')).toEqual({
      code: 0,
      out: `School ${schoolId} is on Large school (large).`,
    });
    const shown = expectStatus<BillingView>(await api(t.app).get('billing/view', admin), 200);
    expect(shown.planId).toBe('large');
    await expect(run('set-plan', String(schoolId), 'gold')).rejects.toThrow(/no plan "gold"/);
    await expect(run('set-plan', '999999', 'small')).rejects.toThrow(/no school 999999/);
  });

  it('marks an invoice paid on a date, and issues a credit note for another', async () => {
    expectStatus(
      await api(t.app).post('billing/update-details', admin, {
        billingName: null,
        address: '1 Operator Way',
        taxNumber: null,
        financeEmail: 'bursar@operator.example.org',
      }),
      200,
    );
    const first = expectStatus<{ number: string; periodEnd: string }>(
      await api(t.app).post('billing/request-invoice', admin, { poNumber: 'PO-77' }),
      200,
    );
    const paid = await run('mark-paid', first.number, '2026-12-01');
    expect(paid).toEqual({
      code: 0,
      out: `${first.number} paid: school ${schoolId} is active until ${first.periodEnd.slice(0, 10)}.`,
    });
    const shown = expectStatus<BillingView>(await api(t.app).get('billing/view', admin), 200);
    expect(shown.status).toMatchObject({ state: 'active', until: first.periodEnd });
    expect(shown.invoices[0]?.paidAt).toBe('2026-12-01T12:00:00.000Z');

    const second = expectStatus<{ number: string }>(
      await api(t.app).post('billing/request-invoice', admin, { poNumber: 'PO-78' }),
      200,
    );
    const credit = await run('credit-note', second.number, 'Ordered', 'twice');
    expect(credit.code).toBe(0);
    expect(credit.out).toMatch(
      new RegExp(`^Credit note PRL-\\d{6} cancels ${second.number} \\(-EUR 2,148\\.00\\)\\.$`),
    );
    expect((await lastMailTo(t.db, 'bursar@operator.example.org'))?.subject).toMatch(/^Credit note PRL-/);

    const listed = await run('invoices', String(schoolId));
    expect(listed.out.split('\n')).toEqual([
      expect.stringMatching(/\tcredit note\t-EUR 2,148\.00\tPO-78\t$/),
      expect.stringMatching(new RegExp(`^${second.number}\\tinvoice\\tEUR 2,148\\.00\\tPO-78\\tcredited$`)),
      `${first.number}\tinvoice\tEUR 2,148.00\tPO-77\tpaid 2026-12-01`,
    ]);
    await expect(run('mark-paid', second.number)).rejects.toThrow(/cancelled by a credit note/);
  });

  it('explains its usage and refuses a malformed command with exit code 2', async () => {
    expect((await run('help')).out).toContain('mark-paid <invoice>');
    expect(await run('mark-paid')).toMatchObject({ code: 2 });
    expect(await run('mark-paid', '1', 'yesterday')).toMatchObject({ code: 2 });
    expect(await run('refund', '1')).toMatchObject({
      code: 2,
      out: expect.stringContaining('unknown command "refund"'),
    });
  });
});

describe('the operator process', () => {
  it('opens and migrates the configured database, then runs the command', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-operator-'));
    try {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'apps/server/src/operator/main.ts', 'schools'],
        { env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, NODE_ENV: 'test' }, timeout: 60_000 },
      );
      expect(stdout.trim()).toBe('id\tschool\tplan\tstatus\tuntil\tnew events');
      const failed = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'apps/server/src/operator/main.ts', 'mark-paid', 'PRL-000404'],
        { env: { ...process.env, DATABASE_URL: '', DATA_DIR: dataDir, NODE_ENV: 'test' }, timeout: 60_000 },
      ).catch((error: { code: number; stderr: string }) => error);
      expect(failed).toMatchObject({ code: 1, stderr: 'operator: no invoice PRL-000404\n' });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
