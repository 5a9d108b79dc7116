import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { IdMultiSelect, type IdOption } from '../../../components/id-multi-select';
import { peopleSearchQuery } from '../../../lib/people-search';
import { SEARCH_DEBOUNCE_MS, useDebouncedValue } from '../../../lib/use-debounced-value';
import type { PersonRef } from '../api';
import type { PeopleKind } from '../list-cache';

export const personOption = (person: PersonRef): IdOption => ({
  id: person.id,
  label: person.name,
  secondary: person.email,
});

type Props = {
  kind: PeopleKind;
  label: string;
  value: readonly number[];
  onChange: (ids: number[]) => void;
  onBlur?: () => void;
  error?: string | undefined;
  noOptionsText: string;
  /** Who is linked already (an edited parent's children), so their names show before any search. */
  linked?: readonly PersonRef[];
};

/**
 * Choose children or parents among a school's thousands (decision 035): the server searches what is typed
 * and offers the first matches by name; the names of those chosen are kept as they are picked.
 */
export function PeoplePicker({ kind, linked = [], ...props }: Props) {
  const [text, setText] = useState('');
  const q = useDebouncedValue(text.trim(), SEARCH_DEBOUNCE_MS);
  const found = useQuery(peopleSearchQuery(kind, q));
  const options = useMemo(() => (found.data?.items ?? []).map(personOption), [found.data]);
  const [known, setKnown] = useState(
    () => new Map(linked.map((person) => [person.id, personOption(person)])),
  );
  return (
    <IdMultiSelect
      {...props}
      options={options}
      loading={found.isFetching}
      known={known}
      onSearch={setText}
      onChange={(ids) => {
        setKnown(
          (current) => new Map([...current, ...options.map((option) => [option.id, option] as const)]),
        );
        props.onChange(ids);
      }}
    />
  );
}
