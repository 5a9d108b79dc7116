import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { addFields, pgOwnAddFields } from './result-rows';

// The row template made as a plain object gives the rows pg's own would: compared with pg's addFields
// on the same fields and values.

type Field = { name: string; dataTypeID: number; format: string };
type Parsing = {
  addFields(fields: Field[]): void;
  parseRow(values: Array<string | null>): Record<string, unknown>;
  fields: Field[];
};
const Result = (pg as unknown as { Result: new () => Parsing }).Result;
const pgAddFields = pgOwnAddFields() as Parsing['addFields'];

function rows(add: Parsing['addFields'], fields: Field[], values: Array<Array<string | null>>) {
  const result = new Result();
  add.call(result, fields);
  return { fields: result.fields, rows: values.map((row) => result.parseRow(row)) };
}

const field = (name: string, dataTypeID = 25): Field => ({ name, dataTypeID, format: 'text' });
const INT4 = 23;
const BOOL = 16;
const TIMESTAMPTZ = 1184;
const JSONB = 3802;

describe('pg row templates made as plain objects', () => {
  it.each([
    ['no columns', [], [[]]],
    ['one column', [field('id', INT4)], [['7'], [null]]],
    [
      'a booking read-back of many kinds',
      [
        field('id', INT4),
        field('teacher_name'),
        field('starts_at', TIMESTAMPTZ),
        field('created', BOOL),
        field('settings', JSONB),
      ],
      [
        ['1', 'Ms Ada Lovelace', '2026-12-10 16:00:00+00', 't', '{"a":{"b":1}}'],
        ['2', null, '2026-12-10 16:10:00+00', 'f', null],
      ],
    ],
    ['a repeated name (the last value wins)', [field('x'), field('y'), field('x')], [['1', '2', '3']]],
    [
      'a column named __proto__',
      [field('__proto__'), field('constructor'), field('toString')],
      [['p', 'c', 't']],
    ],
    ['thirty columns', Array.from({ length: 30 }, (_, i) => field(`c${i}`, INT4)), [Array(30).fill('5')]],
  ] as Array<[string, Field[], Array<Array<string | null>>]>)('%s', (_, fields, values) => {
    expect(pgAddFields.toString()).toContain('Object.create(null)'); // pg's own
    const ours = rows(addFields as Parsing['addFields'], fields, values);
    const theirs = rows(pgAddFields, fields, values);
    expect(ours.fields).toBe(fields);
    expect(ours.rows).toEqual(theirs.rows);
    for (const [index, row] of ours.rows.entries()) {
      const other = theirs.rows[index] as Record<string, unknown>;
      expect(Object.keys(row)).toEqual(Object.keys(other));
      expect(Object.getPrototypeOf(row)).toBe(Object.getPrototypeOf(other));
      expect(Object.getOwnPropertyDescriptors(row)).toEqual(Object.getOwnPropertyDescriptors(other));
    }
  });

  it('is what every result of the app uses once the database module is loaded', async () => {
    await import('./database');
    expect(Result.prototype.addFields).toBe(addFields);
  });
});
