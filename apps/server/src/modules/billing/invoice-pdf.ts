import { documentNumber, formatMoney } from '@parley/domain/billing';
import PDFDocument from 'pdfkit';
import type { InvoiceParty } from '../../db/schema';

// An invoice or credit note as a PDF, made only from the stored, immutable row: the same row gives the
// same bytes every time (the creation date is the issue date, and pdfkit's file id derives from it), so
// nothing needs storing beside the row and a download years later matches the mail.

export type InvoiceDocument = {
  kind: 'invoice' | 'credit_note';
  number: number;
  issued_at: Date;
  due_at: Date;
  plan_name: string;
  period_start: Date;
  period_end: Date;
  po_number: string | null;
  currency: string;
  net_minor: number;
  tax_rate_percent: string | number;
  tax_minor: number;
  total_minor: number;
  bill_to: InvoiceParty;
  seller_details: InvoiceParty;
  reason: string | null;
  paid_at: Date | null;
  payment_method: 'transfer' | 'card' | null;
};

const day = (date: Date) => date.toISOString().slice(0, 10);

/** Helvetica speaks WinAnsi: characters beyond it would print as garbage, so they become '?'. */
const printable = (text: string) => text.normalize('NFC').replace(/[^\n\x20-\x7e\xa0-\xff€–—‘’“”•…]/g, '?');

export function invoiceTitle(invoice: Pick<InvoiceDocument, 'kind'>) {
  return invoice.kind === 'credit_note' ? 'Credit note' : 'Invoice';
}

export function invoiceFileName(invoice: Pick<InvoiceDocument, 'kind' | 'number'>, prefix: string) {
  return `${invoice.kind === 'credit_note' ? 'credit-note' : 'invoice'}-${documentNumber(prefix, invoice.number)}.pdf`;
}

export function renderInvoicePdf(
  invoice: InvoiceDocument,
  prefix: string,
  creditedNumber: number | null,
): Promise<Buffer> {
  const number = documentNumber(prefix, invoice.number);
  const title = invoiceTitle(invoice);
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: {
      Title: `${title} ${number}`,
      Author: printable(invoice.seller_details.name),
      Producer: 'Parley',
      Creator: 'Parley',
      CreationDate: invoice.issued_at,
    },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const money = (minor: number) => formatMoney(minor, invoice.currency);
  const seller = invoice.seller_details;
  const buyer = invoice.bill_to;

  doc.font('Helvetica-Bold').fontSize(20).text(`${title} ${number}`);
  doc.moveDown(0.5);
  doc.font('Helvetica').fontSize(10);
  doc.text(`Issued: ${day(invoice.issued_at)}`);
  if (invoice.kind === 'invoice') doc.text(`Due: ${day(invoice.due_at)}`);
  if (creditedNumber !== null) doc.text(`Credits invoice: ${documentNumber(prefix, creditedNumber)}`);
  if (invoice.po_number) doc.text(`Purchase order: ${printable(invoice.po_number)}`);
  doc.moveDown();

  const top = doc.y;
  doc.font('Helvetica-Bold').text('From', 56, top);
  doc
    .font('Helvetica')
    .text(
      printable(
        [seller.name, seller.address, `VAT/Tax no. ${seller.taxNumber ?? ''}`, seller.email ?? ''].join('\n'),
      ),
      56,
      doc.y,
      { width: 220 },
    );
  const afterSeller = doc.y;
  doc.font('Helvetica-Bold').text('Bill to', 320, top);
  doc
    .font('Helvetica')
    .text(
      printable(
        [
          buyer.name,
          buyer.address,
          buyer.taxNumber ? `VAT/Tax no. ${buyer.taxNumber}` : '',
          buyer.email ?? '',
        ]
          .filter(Boolean)
          .join('\n'),
      ),
      320,
      doc.y,
      { width: 220 },
    );
  doc.y = Math.max(afterSeller, doc.y) + 20;
  doc.x = 56;

  const row = (label: string, amount: string, bold = false) => {
    const y = doc.y;
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').text(label, 56, y, { width: 340 });
    const labelBottom = doc.y;
    doc.text(amount, 400, y, { width: 140, align: 'right' });
    doc.y = Math.max(labelBottom, doc.y) + 4;
  };
  doc.font('Helvetica-Bold').text('Description', 56, doc.y, { width: 340 });
  doc.moveUp();
  doc.text('Amount', 400, doc.y, { width: 140, align: 'right' });
  doc
    .moveTo(56, doc.y + 2)
    .lineTo(540, doc.y + 2)
    .stroke();
  doc.moveDown(0.5);
  row(
    printable(
      `Parley subscription, ${invoice.plan_name}, ${day(invoice.period_start)} to ${day(invoice.period_end)}`,
    ),
    money(invoice.net_minor),
  );
  if (invoice.reason) row(printable(`Reason: ${invoice.reason}`), '');
  doc.moveTo(56, doc.y).lineTo(540, doc.y).stroke();
  doc.moveDown(0.5);
  row('Net', money(invoice.net_minor));
  row(`Tax ${Number(invoice.tax_rate_percent)}%`, money(invoice.tax_minor));
  row('Total', money(invoice.total_minor), true);
  doc.moveDown();

  doc.font('Helvetica').fontSize(10);
  if (invoice.kind === 'credit_note') {
    doc.text('This credit note cancels the invoice named above.');
  } else if (invoice.paid_at && invoice.payment_method === 'card') {
    doc.text(`Paid by card on ${day(invoice.paid_at)}. Nothing further to pay.`);
  } else {
    doc.text(`Please pay ${money(invoice.total_minor)} by ${day(invoice.due_at)} by bank transfer to:`);
    doc.text(printable(seller.bankDetails ?? ''));
    doc.text(`Reference: ${number}`);
  }
  doc.end();
  return done;
}
