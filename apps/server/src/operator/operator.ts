import { formatMoney } from '@parley/domain/billing';
import {
  type BillingContext,
  operatorCreditNote,
  operatorInvoices,
  operatorMarkPaid,
  operatorSchools,
  operatorSetPlan,
} from '../modules/billing/billing.service';

// The operator's command line (issue 15, decision 021): an installation's operator manages schools' plans
// and records bank transfers here, never through a school admin's screens. `npm run operator -- <command>`.

export const USAGE = `Usage: npm run operator -- <command>

  schools                          every school with its plan and billing status
  invoices <schoolId>              a school's invoices and credit notes
  set-plan <schoolId> <planId>     put a school on a plan of the catalogue
  mark-paid <invoice> [YYYY-MM-DD] record a bank transfer (today unless dated): active until the year's end
  credit-note <invoice> <reason>   cancel an unpaid invoice with a credit note, mailed to the finance contact

<invoice> is its number, as printed (PRL-000042) or bare (42).`;

const day = (date: Date) => date.toISOString().slice(0, 10);

/** Runs one command; what it says goes to `print`. Returns the exit code (2: bad usage). */
export async function runOperator(
  ctx: BillingContext,
  args: string[],
  print: (line: string) => void,
): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case 'schools': {
      const rows = await operatorSchools(ctx);
      print(['id', 'school', 'plan', 'status', 'until', 'new events'].join('\t'));
      for (const row of rows) {
        const status = row.state === 'overdue' ? `overdue ${row.days}d` : row.state.replace('_', ' ');
        print(
          [
            row.id,
            row.name,
            row.plan ?? '-',
            status,
            day(row.until),
            row.canCreateEvents ? 'yes' : 'stopped',
          ].join('\t'),
        );
      }
      return 0;
    }
    case 'invoices': {
      const schoolId = Number(rest[0]);
      if (!Number.isInteger(schoolId) || schoolId <= 0) return usage(print, 'invoices needs a school id');
      for (const row of await operatorInvoices(ctx, schoolId)) {
        const state = row.credited
          ? 'credited'
          : row.paidAt
            ? `paid ${row.paidAt.slice(0, 10)}`
            : row.kind === 'invoice'
              ? `due ${row.dueAt.slice(0, 10)}`
              : '';
        print(
          [
            row.number,
            row.kind.replace('_', ' '),
            formatMoney(row.totalMinor, row.currency),
            row.poNumber ?? '-',
            state,
          ].join('\t'),
        );
      }
      return 0;
    }
    case 'set-plan': {
      const [school, planId] = rest;
      const schoolId = Number(school);
      if (!Number.isInteger(schoolId) || schoolId <= 0 || !planId)
        return usage(print, 'set-plan needs a school id and a plan id');
      const { plan, outgrown } = await operatorSetPlan(ctx, schoolId, planId);
      print(`School ${schoolId} is on ${plan.name} (${plan.id}).`);
      if (outgrown)
        print(
          `It has ${outgrown.students} students: ${
            outgrown.fits
              ? `its next invoice will be for ${outgrown.fits.name} (${outgrown.fits.id})`
              : 'no plan of the catalogue covers them'
          }.`,
        );
      return 0;
    }
    case 'mark-paid': {
      const [invoice, on] = rest;
      if (!invoice) return usage(print, 'mark-paid needs an invoice number');
      if (on !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(on)) return usage(print, 'the date is YYYY-MM-DD');
      const paid = await operatorMarkPaid(ctx, invoice, on ? new Date(`${on}T12:00:00Z`) : new Date());
      print(`${invoice} paid: school ${paid.schoolId} is active until ${day(paid.paidUntil)}.`);
      return 0;
    }
    case 'credit-note': {
      const [invoice, ...reason] = rest;
      if (!invoice || reason.length === 0)
        return usage(print, 'credit-note needs an invoice number and a reason');
      const note = await operatorCreditNote(ctx, invoice, reason.join(' '));
      print(
        `Credit note ${note.number} cancels ${invoice} (${formatMoney(note.totalMinor, note.currency)}).`,
      );
      return 0;
    }
    case undefined:
    case 'help':
    case '--help':
      print(USAGE);
      return 0;
    default:
      return usage(print, `unknown command "${command}"`);
  }
}

function usage(print: (line: string) => void, problem: string): number {
  print(`${problem}\n\n${USAGE}`);
  return 2;
}
