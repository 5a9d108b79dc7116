import { describe, expect, it } from 'vitest';
import { type FoundSession, SessionCache } from './session-cache';

const HOUR = 3_600_000;
const session = (userId: number, expiresAt = new Date(Date.now() + 24 * HOUR)): FoundSession => ({
  userId,
  schoolId: 1,
  roles: ['parent'],
  expiresAt,
});

/** A read that counts its calls and answers `answer`. */
function reader(answer: FoundSession | undefined) {
  const read = async () => {
    read.calls += 1;
    return answer;
  };
  read.calls = 0;
  return read;
}

describe('the session cache', () => {
  it('keeps a found session while every process is heard, and reads again once not', async () => {
    const cache = new SessionCache();
    const read = reader(session(7));
    cache.setHearing(true);
    await cache.find('a', read);
    expect(await cache.find('a', read)).toMatchObject({ userId: 7 });
    expect(read.calls).toBe(1);
    cache.setHearing(false);
    await cache.find('a', read);
    await cache.find('a', read);
    expect(read.calls).toBe(3);
  });

  it('keeps nothing that was not found', async () => {
    const cache = new SessionCache();
    cache.setHearing(true);
    const read = reader(undefined);
    await cache.find('a', read);
    await cache.find('a', read);
    expect(read.calls).toBe(2);
  });

  it("forgets a user's sessions, only theirs, when the user is announced", async () => {
    const cache = new SessionCache();
    cache.setHearing(true);
    const seven = reader(session(7));
    const eight = reader(session(8));
    await cache.find('a', seven);
    await cache.find('b', seven);
    await cache.find('c', eight);
    cache.changed(7);
    await Promise.all([cache.find('a', seven), cache.find('b', seven), cache.find('c', eight)]);
    expect(seven.calls).toBe(4);
    expect(eight.calls).toBe(1);
  });

  it('does not keep what a read brought back when an announcement came while it ran', async () => {
    const cache = new SessionCache();
    cache.setHearing(true);
    let finish: (value: FoundSession) => void = () => {};
    const slow = () => new Promise<FoundSession>((resolve) => (finish = resolve));
    const pending = cache.find('a', slow);
    cache.changed(99); // any user: the read may have seen the database before that change
    finish(session(7));
    expect(await pending).toMatchObject({ userId: 7 });
    const read = reader(session(7));
    await cache.find('a', read);
    expect(read.calls).toBe(1);
  });

  it('does not keep a session past its token, nor past ten minutes', async () => {
    const cache = new SessionCache();
    cache.setHearing(true);
    let now = Date.now();
    const clock = () => now;
    const shortLived = reader(session(7, new Date(now + 60_000)));
    await cache.find('a', shortLived, clock);
    now += 59_000;
    await cache.find('a', shortLived, clock);
    expect(shortLived.calls).toBe(1);
    now += 2_000;
    await cache.find('a', shortLived, clock);
    expect(shortLived.calls).toBe(2);

    const longLived = reader(session(8));
    await cache.find('b', longLived, clock);
    now += 10 * 60_000 + 1;
    await cache.find('b', longLived, clock);
    expect(longLived.calls).toBe(2);
  });
});
