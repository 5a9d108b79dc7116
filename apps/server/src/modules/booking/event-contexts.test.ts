import { describe, expect, it } from 'vitest';
import type { BookingEventRow } from './booking.repository';
import { EventContexts, type ReadContext, recipientAccessOf } from './event-contexts';

const event = (id: number, version: number) => ({ id, school_id: 1, version }) as unknown as BookingEventRow;

/** A read that counts its calls and answers with the event at the version given (or none). */
function reader(version: number | undefined, recipientIds: number[] = []) {
  const read: ReadContext & { calls: number } = Object.assign(
    async () => {
      read.calls += 1;
      return version === undefined ? undefined : { event: event(7, version), recipientIds };
    },
    { calls: 0 },
  );
  return read;
}

describe('the event contexts a process keeps', () => {
  it('answer from what is kept at the version read, and read again at another', async () => {
    const contexts = new EventContexts();
    const first = reader(1);
    expect((await contexts.at(7, 1, first))?.event.version).toBe(1);
    expect((await contexts.at(7, 1, first))?.event.version).toBe(1);
    expect(first.calls).toBe(1);
    const second = reader(2);
    expect((await contexts.at(7, 2, second))?.event.version).toBe(2);
    expect(second.calls).toBe(1);
    expect(contexts.keptVersion(7)).toBe(2);
  });

  it('keep the newer of two reads that cross', async () => {
    const contexts = new EventContexts();
    await contexts.at(7, 3, reader(3));
    // A peek that read version 2 before the change, and whose own read of the context brings version 2.
    expect((await contexts.at(7, 2, reader(2)))?.event.version).toBe(2);
    expect(contexts.keptVersion(7)).toBe(3);
  });

  it('keep nothing for an event the school lacks', async () => {
    const contexts = new EventContexts();
    expect(await contexts.at(7, 0, reader(undefined))).toBeUndefined();
    expect(contexts.keptVersion(7)).toBeUndefined();
  });

  it('keep at most fifty events, the least recently used going first', async () => {
    const contexts = new EventContexts();
    const read = (id: number) => async () => ({ event: event(id, 0), recipientIds: [] });
    for (let id = 1; id <= 50; id += 1) await contexts.at(id, 0, read(id));
    await contexts.at(1, 0, read(1)); // used again: the most recent
    await contexts.at(51, 0, read(51));
    expect(contexts.keptVersion(1)).toBe(0);
    expect(contexts.keptVersion(2)).toBeUndefined();
    expect(contexts.keptVersion(51)).toBe(0);
  });

  it('say which of a family the recipient list names', async () => {
    const contexts = new EventContexts();
    const none = await contexts.at(7, 1, reader(1));
    const family = { children: [21, 22], parents: [] };
    expect(none && recipientAccessOf(none, 10, family)).toEqual({
      any: false,
      among: new Set(),
      children: [21, 22],
      parents: [],
    });
    const some = await contexts.at(7, 2, reader(2, [22, 99]));
    expect(some && recipientAccessOf(some, 10, family)).toEqual({
      any: true,
      among: new Set([22]),
      children: [21, 22],
      parents: [],
    });
  });
});
