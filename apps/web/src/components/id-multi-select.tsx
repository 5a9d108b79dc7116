import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';

export type IdOption = { id: number; label: string; secondary?: string };

type Props = {
  label: string;
  options: readonly IdOption[];
  value: readonly number[];
  onChange: (ids: number[]) => void;
  onBlur?: () => void;
  error?: string | undefined;
  helperText?: string;
  loading?: boolean;
  noOptionsText?: string;
  /** Set when the server searches: what is typed goes there, and the options are its answer as they come. */
  onSearch?: (text: string) => void;
  /** Labels of the chosen ids, where the options may not hold them (a search's answer holds what matched). */
  known?: ReadonlyMap<number, IdOption>;
};

/** Pick several things by id from a searchable list (subjects), or one the server searches (children, parents). */
export function IdMultiSelect({
  label,
  options,
  value,
  onChange,
  onBlur,
  error,
  helperText,
  loading = false,
  noOptionsText,
  onSearch,
  known,
}: Props) {
  const byId = useMemo(() => new Map(options.map((option) => [option.id, option])), [options]);
  // Ids not among the options (a list still loading) still show, by number, so nothing is dropped. The
  // same array while the choice stands: a new one reads as a new value and clears what is being typed.
  // With a search on the server the labels come from `known` alone, as the options change with every search.
  const labels = known ?? byId;
  const selected = useMemo(
    () => value.map((id) => labels.get(id) ?? { id, label: `#${id}` }),
    [value, labels],
  );
  return (
    <Autocomplete
      multiple
      options={options as IdOption[]}
      value={selected}
      loading={loading}
      noOptionsText={noOptionsText}
      filterSelectedOptions
      disableCloseOnSelect
      isOptionEqualToValue={(option, current) => option.id === current.id}
      getOptionLabel={(option) => option.label}
      onChange={(_event, next) => onChange(next.map((option) => option.id))}
      onBlur={onBlur}
      {...(onSearch && {
        filterOptions: (found: IdOption[]) => found,
        onInputChange: (_event: unknown, text: string) => onSearch(text),
      })}
      renderOption={(props, option) => {
        const { key, ...rest } = props as typeof props & { key: string };
        return (
          <Box component="li" key={key} {...rest}>
            <Box>
              <Typography variant="body2">{option.label}</Typography>
              {option.secondary ? (
                <Typography variant="caption" color="text.secondary">
                  {option.secondary}
                </Typography>
              ) : null}
            </Box>
          </Box>
        );
      }}
      renderInput={(params) => (
        <TextField {...params} label={label} error={Boolean(error)} helperText={error ?? helperText} />
      )}
    />
  );
}
