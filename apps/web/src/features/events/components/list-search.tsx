import { TextField } from '../../../components/text-field';

/** A long list's search box above it (decision 035): what is typed goes to the caller, which pages again. */
export function ListSearch(props: { label: string; value: string; onSearch: (value: string) => void }) {
  return (
    <TextField
      size="small"
      type="search"
      label={props.label}
      value={props.value}
      onChange={(e) => props.onSearch(e.target.value)}
      sx={{ mb: 1, width: '100%', maxWidth: 360 }}
    />
  );
}
