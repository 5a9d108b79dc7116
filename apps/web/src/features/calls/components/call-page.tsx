import CallEndIcon from '@mui/icons-material/CallEnd';
import DoneIcon from '@mui/icons-material/Done';
import MicIcon from '@mui/icons-material/Mic';
import MicOffIcon from '@mui/icons-material/MicOff';
import PersonAddIcon from '@mui/icons-material/PersonAdd';
import TuneIcon from '@mui/icons-material/Tune';
import VideocamIcon from '@mui/icons-material/Videocam';
import VideocamOffIcon from '@mui/icons-material/VideocamOff';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { CallInfo } from '@parley/domain/live-schemas';
import { callPath } from '@parley/domain/routes';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import { PageHeading } from '../../../components/page-heading';
import { PageSkeleton } from '../../../components/page-skeleton';
import { SectionCard } from '../../../components/section-card';
import { useSnackbar } from '../../../components/snackbar';
import { serverMessage } from '../../../lib/api-client';
import { queryClient } from '../../../lib/query-client';
import { useSession } from '../../../lib/session';
import { readString, writeString } from '../../../lib/storage';
import { readBookingLink } from '../../booking/booking-link';
import { callQuery, inviteAdmin } from '../api';
import {
  CallConnection,
  type CallState,
  callOver,
  type DeviceKind,
  type LocalMedia,
  openMedia,
  type Remote,
} from '../call-connection';
import { clockText } from '../call-logic';
import { CALL_UI } from '../call-text';
import { useServerNow } from '../use-server-now';

// A video appointment (issue 41): /call/{bookingId}. Before joining, what the call is and, before a first
// call, what Parley does and does not see; in the call, the others' pictures, your own, mute, camera off
// and the time left on the server's clock; a minute before the end a warning; at the end it hangs up. The
// teacher sees their next family, and whether it is waiting, and goes on to it without leaving the page.

const PRIVACY_SEEN = 'callPrivacySeen';

function VideoTile({
  stream,
  label,
  own = false,
  showPicture = true,
}: {
  stream: MediaStream | null;
  label: string;
  own?: boolean;
  showPicture?: boolean;
}) {
  const video = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    if (video.current && video.current.srcObject !== stream) video.current.srcObject = stream;
  }, [stream]);
  return (
    <Box
      component="figure"
      sx={{
        m: 0,
        position: 'relative',
        bgcolor: 'grey.900',
        borderRadius: 2,
        overflow: 'hidden',
        aspectRatio: '4 / 3',
        // Your own picture sits in a corner of the others', framed so that it reads as yours.
        ...(own && {
          width: { xs: 96, md: 200 },
          position: 'absolute',
          right: 12,
          bottom: 12,
          zIndex: 1,
          border: 2,
          borderColor: 'common.white',
          boxShadow: 4,
        }),
      }}
    >
      <Box
        component="video"
        ref={video}
        autoPlay
        playsInline
        muted={own}
        aria-label={label}
        sx={{
          width: '100%',
          height: '100%',
          objectFit: 'cover',
          display: showPicture ? 'block' : 'none',
          ...(own && { transform: 'scaleX(-1)' }),
        }}
      />
      <Typography
        component="figcaption"
        variant="body2"
        sx={{
          position: 'absolute',
          left: 8,
          // The others' names at the top, where your own picture in the corner never covers them.
          ...(own ? { bottom: 8 } : { top: 8 }),
          px: 1,
          borderRadius: 1,
          color: 'common.white',
          bgcolor: 'rgba(0, 0, 0, 0.6)',
        }}
      >
        {label}
      </Typography>
    </Box>
  );
}

const nameOf = (info: CallInfo, userId: number) =>
  info.participants.find((each) => each.userId === userId)?.name ?? CALL_UI.schoolAdmin;

/** Who the caller meets: the family for the teacher, the teacher for the family. */
const otherSide = (info: CallInfo) => (info.role === 'teacher' ? info.familyName : info.teacherName);

/** The teacher's "Invite an admin to help": a list of the school's admins; the one chosen gets a push. */
/** A button that opens a menu of choices under it; a choice closes the menu. */
function MenuButton({
  label,
  icon,
  items,
}: {
  label: string;
  icon: ReactNode;
  items: (close: () => void) => ReactNode;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);
  return (
    <>
      <Button
        variant="outlined"
        startIcon={icon}
        aria-haspopup="menu"
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        {label}
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={close}>
        {items(close)}
      </Menu>
    </>
  );
}

function InviteAdmin({ info }: { info: CallInfo }) {
  const showSnackbar = useSnackbar();
  if (info.role !== 'teacher' || info.admins.length === 0) return null;
  const invite = async (adminId: number) => {
    try {
      const { message } = await inviteAdmin({ bookingId: info.bookingId, adminId });
      showSnackbar(message, 'success');
      await queryClient.invalidateQueries({ queryKey: ['calls', info.bookingId] });
    } catch (error) {
      showSnackbar(serverMessage(error, CALL_UI.inviteFailed), 'error');
    }
  };
  return (
    <MenuButton
      label={CALL_UI.inviteAdmin}
      icon={<PersonAddIcon />}
      items={(close) =>
        info.admins.map((admin) => (
          <MenuItem
            key={admin.userId}
            onClick={() => {
              close();
              void invite(admin.userId);
            }}
          >
            {admin.name}
          </MenuItem>
        ))
      }
    />
  );
}

type Device = { kind: DeviceKind; id: string; label: string };

/** The cameras and microphones the browser offers, kept up to date as they are plugged in or out. */
function useDevices(): Device[] {
  const [devices, setDevices] = useState<Device[]>([]);
  useEffect(() => {
    const media = navigator.mediaDevices;
    if (!media?.enumerateDevices) return;
    let open = true;
    const read = async () => {
      const found = await media.enumerateDevices().catch(() => []);
      const counts = { audio: 0, video: 0 };
      const list = found.flatMap((device): Device[] => {
        const kind = device.kind === 'audioinput' ? 'audio' : device.kind === 'videoinput' ? 'video' : null;
        if (!kind || !device.deviceId) return [];
        counts[kind] += 1;
        return [
          { kind, id: device.deviceId, label: device.label || CALL_UI.deviceNumber(kind, counts[kind]) },
        ];
      });
      if (open) setDevices(list);
    };
    void read();
    media.addEventListener('devicechange', read);
    return () => {
      open = false;
      media.removeEventListener('devicechange', read);
    };
  }, []);
  return devices;
}

/** "Choose camera" or "Choose microphone": another one (a phone's front or back camera) in the call. */
function DevicePicker({
  kind,
  devices,
  connection,
  state,
}: {
  kind: DeviceKind;
  devices: Device[];
  connection: CallConnection;
  state: CallState;
}) {
  const showSnackbar = useSnackbar();
  const choices = devices.filter((device) => device.kind === kind);
  if (choices.length < 2) return null;
  const choose = async (device: Device) => {
    if (!(await connection.switchDevice(device.kind, device.id).catch(() => false)))
      showSnackbar(CALL_UI.deviceFailed(device.label), 'error');
  };
  return (
    <MenuButton
      label={kind === 'video' ? CALL_UI.chooseCamera : CALL_UI.chooseMicrophone}
      icon={<TuneIcon />}
      items={(close) =>
        choices.map((device) => {
          const inUse = state.devices[kind] === device.id;
          return (
            <MenuItem
              key={device.id}
              role="menuitemradio"
              aria-checked={inUse}
              selected={inUse}
              onClick={() => {
                close();
                void choose(device);
              }}
            >
              <ListItemIcon>{inUse && <DoneIcon fontSize="small" />}</ListItemIcon>
              <ListItemText>{device.label}</ListItemText>
            </MenuItem>
          );
        })
      }
    />
  );
}

function NextFamily({ info }: { info: CallInfo }) {
  const navigate = useNavigate();
  if (info.role !== 'teacher') return null;
  const { next } = info;
  if (!next) return <Typography color="text.secondary">{CALL_UI.noNext}</Typography>;
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
      <Typography sx={{ fontWeight: 600 }}>{CALL_UI.next(next.familyName, next.time)}</Typography>
      <Chip
        size="small"
        color={next.waiting ? 'success' : 'default'}
        label={next.waiting ? CALL_UI.nextWaiting : CALL_UI.nextNotYet}
        sx={{ alignSelf: { xs: 'flex-start', sm: 'center' } }}
      />
      <Button
        variant="outlined"
        onClick={() => navigate(callPath(next.bookingId), { state: { join: true } })}
        sx={{ alignSelf: { xs: 'flex-start', sm: 'center' } }}
      >
        {CALL_UI.goToNext}
      </Button>
    </Stack>
  );
}

function InCall({
  info,
  receivedAt,
  connection,
  media,
  onRejoin,
}: {
  info: CallInfo;
  /** When the page received `info` (its serverNow was the server's clock then). */
  receivedAt: number;
  connection: CallConnection;
  media: LocalMedia;
  onRejoin: () => void;
}) {
  const state = useSyncExternalStore(connection.subscribe, connection.snapshot);
  const devices = useDevices();
  const now = useServerNow(info.serverNow, receivedAt);
  const left = new Date(info.endsAt).getTime() - now;
  const over = callOver(state.phase);
  // The server ends the call at the end; if its word is lost, the page hangs up on its own clock.
  useEffect(() => {
    if (left <= 0 && !over) connection.leave('ended');
  }, [connection, left, over]);

  if (over) {
    return (
      <Stack spacing={2}>
        <Alert severity={state.phase === 'refused' ? 'error' : 'info'}>
          {state.phase === 'refused' ? state.refusal : state.phase === 'left' ? CALL_UI.left : CALL_UI.ended}
        </Alert>
        {state.phase === 'left' && left > 0 && (
          <Button variant="outlined" onClick={onRejoin} sx={{ alignSelf: 'flex-start' }}>
            {CALL_UI.rejoin}
          </Button>
        )}
        <NextFamily info={info} />
      </Stack>
    );
  }
  const waitingFor = state.remotes.length === 0;
  const showsVideo = (remote: Remote) => remote.stream.getVideoTracks().length > 0;
  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1} useFlexGap sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Chip
          color={state.phase === 'ending' ? 'warning' : 'primary'}
          label={
            now < new Date(info.startsAt).getTime()
              ? CALL_UI.startsIn(clockText(new Date(info.startsAt).getTime() - now))
              : CALL_UI.timeLeft(clockText(left))
          }
          role="timer"
        />
        {!state.online && <Chip color="warning" variant="outlined" label={CALL_UI.connectionLost} />}
      </Stack>
      {state.phase === 'ending' && (
        <Alert severity="warning" role="alert">
          {CALL_UI.ending}
        </Alert>
      )}
      {media.kind === 'audio' && <Alert severity="info">{CALL_UI.audioOnly}</Alert>}
      {media.kind === 'none' && <Alert severity="warning">{CALL_UI.noMedia}</Alert>}
      <Box sx={{ position: 'relative' }}>
        {waitingFor ? (
          <Box
            sx={{
              aspectRatio: '4 / 3',
              maxHeight: '60vh',
              borderRadius: 2,
              bgcolor: 'grey.900',
              color: 'common.white',
              display: 'grid',
              placeItems: 'center',
              p: 2,
              textAlign: 'center',
            }}
          >
            <Typography>
              {info.teacherBusyUntil && info.role !== 'teacher'
                ? CALL_UI.teacherBusy(info.teacherName, info.teacherBusyUntil)
                : CALL_UI.waitingFor(otherSide(info))}
            </Typography>
          </Box>
        ) : (
          <Box
            sx={{
              display: 'grid',
              gap: 1,
              gridTemplateColumns: state.remotes.length > 1 ? '1fr 1fr' : '1fr',
            }}
          >
            {state.remotes.map((remote) => (
              <VideoTile
                key={remote.userId}
                stream={remote.stream}
                label={nameOf(info, remote.userId)}
                showPicture={showsVideo(remote)}
              />
            ))}
          </Box>
        )}
        {media.kind === 'both' && (
          <VideoTile
            // Another camera is another track: the picture starts again on it.
            key={state.devices.video}
            stream={media.stream}
            label={CALL_UI.you}
            own
            showPicture={!state.cameraOff}
          />
        )}
      </Box>
      <Stack direction="row" spacing={1} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {media.kind !== 'none' && (
          <Button
            variant={state.muted ? 'contained' : 'outlined'}
            startIcon={state.muted ? <MicOffIcon /> : <MicIcon />}
            aria-pressed={state.muted}
            onClick={() => connection.setMuted(!state.muted)}
          >
            {state.muted ? CALL_UI.unmute : CALL_UI.mute}
          </Button>
        )}
        {media.kind === 'both' && (
          <Button
            variant={state.cameraOff ? 'contained' : 'outlined'}
            startIcon={state.cameraOff ? <VideocamOffIcon /> : <VideocamIcon />}
            aria-pressed={state.cameraOff}
            onClick={() => connection.setCameraOff(!state.cameraOff)}
          >
            {state.cameraOff ? CALL_UI.cameraOn : CALL_UI.cameraOff}
          </Button>
        )}
        {media.kind === 'both' && (
          <DevicePicker kind="video" devices={devices} connection={connection} state={state} />
        )}
        {media.kind !== 'none' && (
          <DevicePicker kind="audio" devices={devices} connection={connection} state={state} />
        )}
        <InviteAdmin info={info} />
        <Button
          color="error"
          variant="contained"
          startIcon={<CallEndIcon />}
          onClick={() => connection.leave()}
        >
          {CALL_UI.leave}
        </Button>
      </Stack>
      <NextFamily info={info} />
    </Stack>
  );
}

function CallScreen({ bookingId }: { bookingId: number }) {
  const [search] = useSearchParams();
  const code = search.get('code');
  const { token } = useSession();
  const link = token ? null : code ? readBookingLink(code) : null;
  const location = useLocation();
  const call = useQuery(callQuery(bookingId, link));
  const [joined, setJoined] = useState<{ connection: CallConnection; media: LocalMedia } | null>(null);
  const [joining, setJoining] = useState(false);
  const [privacySeen] = useState(() => readString(PRIVACY_SEEN) !== null);

  // Whether the page is still open when the camera and microphone answer (the browser may ask first).
  const open = useRef(true);
  useEffect(() => {
    open.current = true;
    return () => {
      open.current = false;
    };
  }, []);

  const join = async (info: CallInfo) => {
    const credential = token ? { token } : link ? { link } : null;
    if (joining || !credential) return;
    setJoining(true);
    writeString(PRIVACY_SEEN, '1');
    const media = await openMedia();
    if (!open.current) {
      for (const track of media.stream?.getTracks() ?? []) track.stop();
      return;
    }
    const onPresence = () => void queryClient.invalidateQueries({ queryKey: ['calls', bookingId] });
    setJoined({ connection: new CallConnection(info, media, credential, onPresence), media });
    setJoining(false);
  };
  const joinRef = useRef(join);
  joinRef.current = join;

  // The teacher going on to the next family joins it at once (they said so on the last call's page).
  const autoJoin = (location.state as { join?: boolean } | null)?.join === true;
  useEffect(() => {
    if (autoJoin && call.data && !joined) void joinRef.current(call.data);
  }, [autoJoin, call.data, joined]);

  // Leaving the page leaves the call and lets the camera go.
  useEffect(() => () => joined?.connection.leave(), [joined]);

  if (call.isPending) return <PageSkeleton />;
  // A later ask refused (the call has ended meanwhile) leaves the page as it is: only a first refusal shows.
  if (call.isError && !call.data) {
    return (
      <Stack spacing={2}>
        <PageHeading>{CALL_UI.title}</PageHeading>
        <Alert severity="error">
          {token || link ? serverMessage(call.error, CALL_UI.loadFailed) : CALL_UI.signIn}
        </Alert>
        <Button variant="outlined" sx={{ alignSelf: 'flex-start' }} onClick={() => void call.refetch()}>
          {CALL_UI.rejoin}
        </Button>
      </Stack>
    );
  }
  const info = call.data;
  const forWhom = info.studentName && info.role === 'teacher' ? ` (for ${info.studentName})` : '';
  return (
    <Stack spacing={2}>
      <PageHeading>{CALL_UI.title}</PageHeading>
      <Typography>
        {info.eventName}: {otherSide(info)}
        {forWhom}, {info.time}–{info.endTime}
      </Typography>
      {joined ? (
        <InCall
          info={info}
          receivedAt={call.dataUpdatedAt}
          connection={joined.connection}
          media={joined.media}
          onRejoin={() => {
            setJoined(null);
            void join(info);
          }}
        />
      ) : (
        <SectionCard title={privacySeen ? CALL_UI.title : CALL_UI.privacyTitle}>
          <Stack spacing={2}>
            {privacySeen ? (
              <Typography color="text.secondary">{CALL_UI.privacyShort}</Typography>
            ) : (
              CALL_UI.privacy.map((line) => <Typography key={line}>{line}</Typography>)
            )}
            <Button
              variant="contained"
              startIcon={<VideocamIcon />}
              disabled={joining}
              onClick={() => void join(info)}
              sx={{ alignSelf: 'flex-start' }}
            >
              {CALL_UI.join}
            </Button>
            <NextFamily info={info} />
          </Stack>
        </SectionCard>
      )}
    </Stack>
  );
}

export function CallPage() {
  const { bookingId } = useParams();
  const id = Number(bookingId);
  if (!Number.isInteger(id) || id <= 0) {
    return (
      <Alert severity="error">
        <AlertTitle>{CALL_UI.title}</AlertTitle>
        {CALL_UI.loadFailed}
      </Alert>
    );
  }
  // A new booking (the teacher's next family) is a new call: nothing carries over.
  return <CallScreen key={id} bookingId={id} />;
}
