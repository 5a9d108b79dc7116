import { describe, expect, it } from 'vitest';
import { resultMayHaveStar, statementName } from './statement-pool';

// Which statements go as named prepared statements (statement-pool.ts): data statements whose result
// columns are fixed by their text. One with a `*` among them would fail in a process that prepared it
// before a migration added a column (test/db/rolling-deploy.test.ts).

describe('resultMayHaveStar', () => {
  it.each([
    'select * from events',
    'select "e".*, "t"."name" from "events" as "e"',
    'select e.id, b.* from events e join bookings b on b.event_id = e.id',
    'insert into bookings (school_id) values ($1) returning *',
    'update events set name = $1 where id = $2 returning *',
    'with x as (select id from events) select * from x',
    'select id from events union all select *  from events',
    // Not a column list, yet counted: the check errs on the safe side.
    'select price * 2 as double from things',
    // Unbalanced: taken for the worst.
    'select (id from events',
    "select 'unterminated from events",
  ])('finds one in %s', (text) => {
    expect(resultMayHaveStar(text)).toBe(true);
  });

  it.each([
    'select id, name from events where id = $1',
    'select count(*) as n from bookings',
    'select exists (select * from bookings b where b.id = $1) as found',
    'select (select max(s.ends_at) from sections s where s.event_id = e.id) as last from events e',
    `with ins as (insert into bookings (id) values (1) returning *),
      mine as (select * from ins union all select b.* from bookings b)
      select b.id, b.slot_id from mine b`,
    "select '*' as star, 'it''s * here' as quoted, \"a*b\" as name from events",
    'select id from events -- select *\nwhere id = $1',
    'select id /* select * */ from events where id = $1',
    'select $$ * $$ as text, $tag$ ) * ( $tag$ as other, id from events where id = $1',
    'select row_kind, id from parley_booking_open($1, $2, $3, $4, $5::int[], $6)',
  ])('finds none in %s', (text) => {
    expect(resultMayHaveStar(text)).toBe(false);
  });
});

describe('statementName', () => {
  it('names a data statement after its text, the same name each time', () => {
    const name = statementName('select id from events where id = $1');
    expect(name).toMatch(/^k[0-9a-f]{20}$/);
    expect(statementName('select id from events where id = $1')).toBe(name);
    expect(statementName('select id from events where id = $2')).not.toBe(name);
    for (const verb of [
      'insert into x values ($1)',
      'update x set a = $1',
      'delete from x',
      'with a as (select 1) select 1',
    ])
      expect(statementName(verb)).toBeDefined();
  });

  it('leaves unnamed what is not a data statement, and any statement whose result has a *', () => {
    for (const text of ['begin', 'commit', 'rollback', 'listen parley_slots', 'set role none', 'vacuum'])
      expect(statementName(text)).toBeUndefined();
    expect(statementName('select * from events where id = $1')).toBeUndefined();
    expect(statementName('select "e".* from "events" as "e"')).toBeUndefined();
  });
});
