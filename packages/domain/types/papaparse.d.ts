// The part of papaparse's API the domain package calls (bulk-add.ts), as @types/papaparse declares it,
// without that package's reference to Node's types (see tsconfig.json).
declare module 'papaparse' {
  export interface ParseConfig<T> {
    header?: boolean;
    skipEmptyLines?: boolean | 'greedy';
    transformHeader?(header: string, index: number): string;
    transform?(value: string, field: string | number): unknown;
  }
  export interface ParseResult<T> {
    data: T[];
    errors: Array<{ type: string; code: string; message: string; row?: number }>;
    meta: { fields?: string[]; delimiter: string; linebreak: string; aborted: boolean; truncated: boolean };
  }
  const Papa: { parse<T>(input: string, config?: ParseConfig<T>): ParseResult<T> };
  export default Papa;
}
