/** Text for a LIKE pattern, its own `%`, `_` and `\` taken literally (PostgreSQL's default escape). */
export const likeLiteral = (text: string): string => text.replace(/[\\%_]/g, '\\$&');
