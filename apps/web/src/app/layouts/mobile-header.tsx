import ArrowBackIcon from '@mui/icons-material/ArrowBack';
import MoreVertIcon from '@mui/icons-material/MoreVert';
import AppBar from '@mui/material/AppBar';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { headerOffsetPx } from '../../lib/native';
import { useSession } from '../../lib/session';
import { BUTTONS, NAV } from '../../lib/ui-text';
import { ThemeToggleButton } from './theme-toggle-button';
import { UserMenu } from './user-menu';

const MENU_ID = 'overflow-menu';

/** Mobile: compact header with an optional back arrow, the heading and the overflow menu. */
export function MobileHeader({ heading, showBackArrow }: { heading: string; showBackArrow: boolean }) {
  const navigate = useNavigate();
  const { token } = useSession();
  const [anchorEl, setAnchorEl] = useState<HTMLElement | null>(null);

  return (
    <AppBar
      position="sticky"
      elevation={0}
      // Spec §9: on native platforms the header sits 34 px lower, clear of the status bar.
      sx={{ borderBottom: 1, borderColor: 'divider', pt: `${headerOffsetPx()}px` }}
    >
      <Toolbar variant="dense" sx={{ gap: 0.5, px: 1.5 }}>
        {showBackArrow ? (
          <IconButton edge="start" color="inherit" aria-label={BUTTONS.back} onClick={() => navigate(-1)}>
            <ArrowBackIcon />
          </IconButton>
        ) : null}
        <Typography component="div" variant="subtitle1" noWrap sx={{ flexGrow: 1, fontWeight: 700 }}>
          {heading}
        </Typography>
        {token ? (
          <>
            <IconButton
              color="inherit"
              edge="end"
              aria-label={NAV.moreMenu}
              aria-controls={anchorEl ? MENU_ID : undefined}
              aria-haspopup="true"
              aria-expanded={anchorEl ? 'true' : undefined}
              onClick={(event) => setAnchorEl(event.currentTarget)}
            >
              <MoreVertIcon />
            </IconButton>
            <UserMenu id={MENU_ID} anchorEl={anchorEl} onClose={() => setAnchorEl(null)} isMobile />
          </>
        ) : (
          <ThemeToggleButton />
        )}
      </Toolbar>
    </AppBar>
  );
}
