import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ResultLine } from '../scan-logic';

/** A ticket's Name, Email, Event and Scanned lines, as a definition list (the scan result, the /t page). */
export function TicketLines({ lines }: { lines: ResultLine[] }) {
  return (
    <Box
      component="dl"
      sx={{
        display: 'grid',
        gridTemplateColumns: 'max-content minmax(0, 1fr)',
        columnGap: 2,
        rowGap: 0.5,
        m: 0,
        textAlign: 'left',
        width: '100%',
        maxWidth: 380,
      }}
    >
      {lines.map((line) => (
        <Box key={line.label} sx={{ display: 'contents' }}>
          <Typography component="dt" variant="body2" color="text.secondary">
            {line.label}
          </Typography>
          <Typography component="dd" variant="body2" sx={{ m: 0, overflowWrap: 'anywhere' }}>
            {line.value}
          </Typography>
        </Box>
      ))}
    </Box>
  );
}
