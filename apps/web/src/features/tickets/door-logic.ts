// Rules of the door page's manual check-in, pure so they are tested directly.

/** A search starts from this many characters: fewer would list half the school. */
export const DOOR_SEARCH_MIN = 2;
/** The server takes at most 100 characters (doorQuery). */
const DOOR_SEARCH_MAX = 100;

/** What to search for, or null when the field holds too little to search. */
export function doorSearchTerm(input: string): string | null {
  const term = input.trim().replace(/\s+/g, ' ').slice(0, DOOR_SEARCH_MAX);
  return term.length >= DOOR_SEARCH_MIN ? term : null;
}
