import Alert, { type AlertColor } from '@mui/material/Alert';

/** Shows one or more lines (e.g. the first message of each field of the server errors). */
export function FormAlert({ lines, severity = 'error' }: { lines: string[]; severity?: AlertColor }) {
  if (lines.length === 0) return null;
  return (
    <Alert severity={severity} role="alert" sx={{ whiteSpace: 'pre-line' }}>
      {lines.join('\n')}
    </Alert>
  );
}
