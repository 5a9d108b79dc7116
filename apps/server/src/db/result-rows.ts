import pg from 'pg';

// pg (8.23) makes each result's row template by filling a null-prototype object with the columns and then
// spreading it: the spread of an object in dictionary mode costs about 0.5 µs per column, 13 µs for the 26
// columns of a booking's read-back, on every statement (issue 14; node-postgres issue 3042 and PR 3753 tell
// the same story). The same template, made as a plain object, costs a tenth of that. Rows come out exactly
// as pg's own: the columns in order, a `__proto__` column an own property, a repeated name the last value.

type FieldDescription = { name: string; dataTypeID: number; format?: 'text' | 'binary' };
type TypeParsers = { getTypeParser(oid: number, format: 'text' | 'binary'): (value: string) => unknown };
type ResultInternals = {
  fields: FieldDescription[];
  _parsers: Array<(value: string) => unknown> | undefined;
  _types: TypeParsers | undefined;
  _prebuiltEmptyResultObject: Record<string, null> | null;
};

/** pg's Result.addFields, with the row template made as a plain object (see above). */
export function addFields(this: ResultInternals, fieldDescriptions: FieldDescription[]): void {
  this.fields = fieldDescriptions;
  if (fieldDescriptions.length) this._parsers = new Array(fieldDescriptions.length);
  const types = this._types ?? pg.types;
  const row: Record<string, null> = {};
  for (let i = 0; i < fieldDescriptions.length; i++) {
    const desc = fieldDescriptions[i] as FieldDescription;
    // An assignment to `__proto__` would set the prototype: the column must be an own property instead.
    if (desc.name === '__proto__')
      Object.defineProperty(row, desc.name, {
        value: null,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    else row[desc.name] = null;
    (this._parsers as Array<(value: string) => unknown>)[i] = types.getTypeParser(
      desc.dataTypeID,
      desc.format || 'text',
    );
  }
  this._prebuiltEmptyResultObject = row;
}

// pg's own method, kept on the prototype the first time it is replaced (the tests compare with it).
const PG_OWN = Symbol.for('parley.pg-own-add-fields');
type Prototype = { addFields: typeof addFields; [PG_OWN]?: typeof addFields };
const prototype = () => pg.Result.prototype as unknown as Prototype;

/** pg's own addFields, whether or not it has been replaced. */
export const pgOwnAddFields = (): typeof addFields => prototype()[PG_OWN] ?? prototype().addFields;

/** Makes every pg result build its row template as above (db/database.ts calls it as it loads). */
export function useFastRowTemplates(): void {
  const own = prototype();
  own[PG_OWN] ??= own.addFields;
  own.addFields = addFields;
}
