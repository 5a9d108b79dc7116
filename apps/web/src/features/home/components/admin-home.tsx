import EventIcon from '@mui/icons-material/Event';
import FamilyRestroomIcon from '@mui/icons-material/FamilyRestroom';
import RefreshIcon from '@mui/icons-material/Refresh';
import SchoolIcon from '@mui/icons-material/School';
import SupervisorAccountIcon from '@mui/icons-material/SupervisorAccount';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { HomeData } from '@parley/domain/home';
import { routeTo } from '@parley/domain/routes';
import { type ReactNode, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { LazyTooltip } from '../../../components/lazy-tooltip';
import { PullToRefresh } from '../../../components/pull-to-refresh';
import { useIsMobile } from '../../../components/use-is-mobile';
import { HOME_TEXT } from '../../../lib/ui-text';
import { HOME_PULL_THRESHOLD, homeTiles, showsSampleBanner, type TileKey } from '../home-logic';

const TILE_ICONS: Record<TileKey, ReactNode> = {
  events: <EventIcon />,
  teachers: <SupervisorAccountIcon />,
  parents: <FamilyRestroomIcon />,
  students: <SchoolIcon />,
};

function CountTiles({ data }: { data: HomeData | undefined }) {
  return (
    <Box
      component="ul"
      aria-label="Counts"
      sx={{
        display: 'grid',
        // minmax(0, …): a long word at 200 % text wraps inside its tile instead of widening the page.
        gridTemplateColumns: { xs: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(4, minmax(0, 1fr))' },
        gap: { xs: 1, md: 2 },
        listStyle: 'none',
        p: 0,
        m: 0,
      }}
    >
      {homeTiles(data).map((tile) => (
        <Card component="li" key={tile.key} variant="outlined">
          <CardActionArea component={RouterLink} to={routeTo(tile.key)} sx={{ height: '100%' }}>
            <CardContent>
              <Stack direction="row" spacing={1} sx={{ alignItems: 'center', color: 'text.secondary' }}>
                {TILE_ICONS[tile.key]}
                <Typography variant="subtitle2" sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                  {HOME_TEXT.tiles[tile.key]}
                </Typography>
              </Stack>
              <Typography variant="h4" component="p" sx={{ fontWeight: 600, mt: 1 }}>
                {tile.count === null ? <Skeleton width={48} /> : tile.count}
              </Typography>
            </CardContent>
          </CardActionArea>
        </Card>
      ))}
    </Box>
  );
}

function EventBookings({ data }: { data: HomeData | undefined }) {
  return (
    <Paper variant="outlined">
      <Typography component="h2" variant="h6" sx={{ fontWeight: 600, px: 2, pt: 2 }}>
        {HOME_TEXT.eventBookings}
      </Typography>
      {data === undefined ? (
        <Box sx={{ p: 2 }}>
          <Skeleton variant="text" height={48} />
          <Skeleton variant="text" height={48} />
        </Box>
      ) : data.activeEvents.length === 0 ? (
        <Typography color="text.secondary" sx={{ p: 2 }}>
          {HOME_TEXT.noActiveEvents}
        </Typography>
      ) : (
        <List aria-label={HOME_TEXT.eventBookings}>
          {data.activeEvents.map((event) => (
            <ListItem key={event.id} disablePadding>
              <ListItemButton component={RouterLink} to={routeTo('events.view', { id: event.id })}>
                <ListItemText primary={event.name} secondary={event.timeToEvent} />
                <Typography variant="body2" sx={{ fontWeight: 600, whiteSpace: 'nowrap', ml: 2 }}>
                  {HOME_TEXT.bookings(event.bookingCountForEvent)}
                </Typography>
              </ListItemButton>
            </ListItem>
          ))}
        </List>
      )}
    </Paper>
  );
}

type Props = {
  data: HomeData | undefined;
  loginCount: number;
  onRefresh: () => Promise<unknown>;
  refreshing: boolean;
};

/** The admin part of spec §2 Home: banner, hint, count tiles, refresh and the Event Bookings list. */
export function AdminHome({ data, loginCount, onRefresh, refreshing }: Props) {
  const isMobile = useIsMobile();
  const [bannerClosed, setBannerClosed] = useState(false);

  const content = (
    <Stack spacing={2}>
      {showsSampleBanner(loginCount) && !bannerClosed ? (
        <Alert severity="info" onClose={() => setBannerClosed(true)}>
          {HOME_TEXT.sampleBanner}
        </Alert>
      ) : null}
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between' }}>
        <Typography color="text.secondary">{HOME_TEXT.hint}</Typography>
        <LazyTooltip title={HOME_TEXT.refresh}>
          <span>
            <IconButton aria-label={HOME_TEXT.refresh} onClick={() => void onRefresh()} disabled={refreshing}>
              {refreshing ? <CircularProgress size={20} /> : <RefreshIcon />}
            </IconButton>
          </span>
        </LazyTooltip>
      </Stack>
      <CountTiles data={data} />
      <EventBookings data={data} />
    </Stack>
  );

  return isMobile ? (
    <PullToRefresh onRefresh={onRefresh} threshold={HOME_PULL_THRESHOLD}>
      {content}
    </PullToRefresh>
  ) : (
    content
  );
}
