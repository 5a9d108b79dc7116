import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** Last resort when a screen throws while rendering: say so and offer a reload. */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  const text = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : 'Something went wrong on this page.';
  return (
    <Box sx={{ p: 3, maxWidth: 560, mx: 'auto' }}>
      <Alert severity="error" sx={{ mb: 2 }}>
        {text}
      </Alert>
      <Button variant="contained" onClick={() => window.location.reload()}>
        Reload
      </Button>
    </Box>
  );
}
