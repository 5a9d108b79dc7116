import type { CallInfo } from '@parley/domain/live-schemas';
import type { LiveMessage } from '@parley/domain/live-timing';
import { SERVER_TEXT } from '@parley/domain/messages';
import { LiveChannel, type LiveCredential } from '../../lib/live-channel';
import { type CallSignalData, makesOffer, signalFor } from './call-logic';

// A video appointment's call (issue 41, decision 040): WebRTC between the browsers, one connection to each
// other person in the call; Parley's live channel only carries their setup. Whoever has the smaller user
// id offers (call-logic.ts), so two sides never offer at once. A newcomer is heard by the others as
// "joined"; each answers with an empty signal, so the newcomer learns who is there.

export type LocalMedia = { stream: MediaStream | null; kind: 'both' | 'audio' | 'none' };

/** The camera and microphone; the microphone alone when no camera can be used; nothing when neither. */
export async function openMedia(devices = globalThis.navigator?.mediaDevices): Promise<LocalMedia> {
  if (!devices?.getUserMedia) return { stream: null, kind: 'none' };
  try {
    return { stream: await devices.getUserMedia({ audio: true, video: true }), kind: 'both' };
  } catch {
    // no camera, or the camera refused: sound only
  }
  try {
    return { stream: await devices.getUserMedia({ audio: true }), kind: 'audio' };
  } catch {
    return { stream: null, kind: 'none' };
  }
}

export type CallPhase = 'joining' | 'in-call' | 'ending' | 'ended' | 'left' | 'refused';

/** The call is over for this page: it ended, the person left, or it was refused. */
export const callOver = (phase: CallPhase): boolean =>
  phase === 'ended' || phase === 'left' || phase === 'refused';

/** What a camera or a microphone is to the page. */
export type DeviceKind = 'audio' | 'video';

export type Remote = { userId: number; stream: MediaStream };

export type CallState = {
  phase: CallPhase;
  /** The server's reason when the call was refused. */
  refusal: string | null;
  /** The live channel is connected (false while it reconnects). */
  online: boolean;
  muted: boolean;
  cameraOff: boolean;
  /** The camera and microphone in use (their device ids), where the browser says. */
  devices: Partial<Record<DeviceKind, string>>;
  remotes: Remote[];
};

/** The device behind one's camera or microphone track. */
const deviceOf = (stream: MediaStream | null, kind: DeviceKind): string | undefined =>
  stream
    ?.getTracks()
    .find((track) => track.kind === kind)
    ?.getSettings().deviceId;

type Peer = {
  pc: RTCPeerConnection;
  stream: MediaStream;
  /** Candidates that came before the other side's description. */
  pending: RTCIceCandidateInit[];
  /** Each peer's steps one after another (an answer must not overtake the offer it answers). */
  queue: Promise<void>;
};

const KINDS = ['audio', 'video'] as const;

export class CallConnection {
  private state: CallState = {
    phase: 'joining',
    refusal: null,
    online: false,
    muted: false,
    cameraOff: false,
    devices: {},
    remotes: [],
  };
  private readonly listeners = new Set<() => void>();
  private readonly peers = new Map<number, Peer>();
  private readonly channel: LiveChannel;

  constructor(
    private readonly info: CallInfo,
    private readonly local: LocalMedia,
    credential: LiveCredential,
    private readonly onPresence: () => void,
    url?: string,
  ) {
    this.channel = new LiveChannel({
      ...(url && { url }),
      onReady: () => {
        this.set({ online: true });
        this.channel.send({ type: 'call-join', bookingId: info.bookingId });
      },
      onNews: (message) => void this.heard(message),
      // Signed out, or the link revoked, since: the call is over for this page; refetched, it learns why.
      onRefused: () => {
        this.hangUp('refused', SERVER_TEXT.unauthenticated);
        this.onPresence();
      },
    });
    this.channel.use(credential);
    const devices: CallState['devices'] = {};
    for (const kind of KINDS) {
      const id = deviceOf(local.stream, kind);
      if (id) devices[kind] = id;
    }
    this.state.devices = devices;
  }

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  readonly snapshot = (): CallState => this.state;

  setMuted(muted: boolean): void {
    for (const track of this.local.stream?.getAudioTracks() ?? []) track.enabled = !muted;
    this.set({ muted });
  }

  setCameraOff(cameraOff: boolean): void {
    for (const track of this.local.stream?.getVideoTracks() ?? []) track.enabled = !cameraOff;
    this.set({ cameraOff });
  }

  /**
   * Another camera or microphone: its track takes the old one's place on every connection, with no new
   * setup, muted or dark as the old one was. A phone that opens one camera at a time lets the old one go
   * first; when the new one cannot be opened, the old one is kept (or opened again).
   */
  async switchDevice(kind: DeviceKind, deviceId: string, devices = navigator.mediaDevices): Promise<boolean> {
    const stream = this.local.stream;
    const old = stream?.getTracks().find((track) => track.kind === kind);
    if (!stream || !old) return false;
    if (this.state.devices[kind] === deviceId) return true;
    const open = async (id: string) => {
      const track = (await devices.getUserMedia({ [kind]: { deviceId: { exact: id } } })).getTracks()[0];
      return track ? { track, id } : undefined;
    };
    const oldId = this.state.devices[kind];
    const opened = await open(deviceId).catch(async () => {
      old.stop();
      return open(deviceId).catch(() => (oldId ? open(oldId).catch(() => undefined) : undefined));
    });
    if (!opened) return false;
    const { track } = opened;
    if (callOver(this.state.phase)) {
      track.stop(); // the call ended while the device was opening
      return false;
    }
    track.enabled = kind === 'audio' ? !this.state.muted : !this.state.cameraOff;
    for (const { pc } of this.peers.values())
      for (const sender of pc.getSenders()) if (sender.track === old) await sender.replaceTrack(track);
    stream.removeTrack(old);
    stream.addTrack(track);
    old.stop();
    this.set({ devices: { ...this.state.devices, [kind]: opened.id } });
    return opened.id === deviceId;
  }

  /** Leaves the call (the others hear "left"); the camera and microphone are released. */
  leave(phase: 'left' | 'ended' = 'left'): void {
    if (this.state.phase === 'left' || this.state.phase === 'ended') return;
    this.channel.send({ type: 'call-leave', bookingId: this.info.bookingId });
    this.hangUp(phase);
  }

  private hangUp(phase: CallPhase, refusal: string | null = null): void {
    for (const userId of [...this.peers.keys()]) this.drop(userId);
    for (const track of this.local.stream?.getTracks() ?? []) track.stop();
    this.channel.use(null);
    this.set({ phase, refusal, online: false });
  }

  private async heard(message: Exclude<LiveMessage, { type: 'ready' }>): Promise<void> {
    if (!('bookingId' in message)) return;
    if (message.type === 'call-presence') return this.onPresence();
    if (message.bookingId !== this.info.bookingId) return;
    switch (message.type) {
      case 'call-joined':
        return this.set({ phase: this.state.phase === 'ending' ? 'ending' : 'in-call' });
      case 'call-refused':
        return this.hangUp('refused', message.message);
      case 'call-ending':
        return this.set({ phase: 'ending' });
      case 'call-ended':
        return this.hangUp('ended');
      case 'call':
        return this.fromOther(message.from, message.kind, message.data);
    }
  }

  private fromOther(from: number, kind: 'joined' | 'left' | 'signal', data: unknown): void {
    const me = this.info.userId;
    const signal = kind === 'signal' ? signalFor(data, me) : null;
    if (kind === 'left') this.drop(from);
    else if (kind === 'joined') {
      // A new page of theirs: whatever we had with the old one is gone.
      this.drop(from);
      this.signal(from, {});
      if (makesOffer(me, from)) this.step(from, () => this.offer(from));
    } else if (signal?.description?.type === 'offer') {
      const offer = signal.description;
      this.step(from, () => this.answer(from, offer));
    } else if (signal?.description?.type === 'answer') {
      const answer = signal.description;
      this.step(from, async (peer) => {
        await peer.pc.setRemoteDescription(answer);
        await this.addPending(peer);
      });
    } else if (signal?.candidate) {
      const candidate = signal.candidate;
      this.step(from, async (peer) => {
        if (peer.pc.remoteDescription) await peer.pc.addIceCandidate(candidate);
        else peer.pending.push(candidate);
      });
    } else if (signal && !signal.description && makesOffer(me, from) && !this.peers.has(from)) {
      // "I am here" from someone already in the call when we came: the offer is ours to make, once.
      this.step(from, () => this.offer(from));
    }
  }

  private async offer(userId: number): Promise<void> {
    const { pc } = this.peer(userId);
    const stream = this.local.stream;
    for (const kind of KINDS) {
      const track = stream?.getTracks().find((each) => each.kind === kind);
      if (track && stream) pc.addTransceiver(track, { direction: 'sendrecv', streams: [stream] });
      else pc.addTransceiver(kind, { direction: 'recvonly' });
    }
    await pc.setLocalDescription();
    this.sendDescription(userId, pc);
  }

  private async answer(userId: number, offer: RTCSessionDescriptionInit): Promise<void> {
    const peer = this.peer(userId);
    const { pc } = peer;
    await pc.setRemoteDescription(offer);
    // Our camera and microphone on the lines the offer opened; receive only where we have none.
    for (const transceiver of pc.getTransceivers()) {
      const track = this.local.stream
        ?.getTracks()
        .find((each) => each.kind === transceiver.receiver.track.kind);
      if (track) await transceiver.sender.replaceTrack(track);
      transceiver.direction = track ? 'sendrecv' : 'recvonly';
    }
    await pc.setLocalDescription();
    this.sendDescription(userId, pc);
    await this.addPending(peer);
  }

  private async addPending(peer: Peer): Promise<void> {
    const pending = peer.pending.splice(0);
    for (const candidate of pending) await peer.pc.addIceCandidate(candidate);
  }

  private sendDescription(userId: number, pc: RTCPeerConnection): void {
    const description = pc.localDescription;
    if (description && (description.type === 'offer' || description.type === 'answer'))
      this.signal(userId, { description: { type: description.type, sdp: description.sdp } });
  }

  private signal(to: number, data: Omit<CallSignalData, 'to'>): void {
    this.channel.send({ type: 'signal', bookingId: this.info.bookingId, data: { to, ...data } });
  }

  /** Runs a step of one peer's setup after its earlier ones; a failed step leaves the others going. */
  private step(userId: number, run: (peer: Peer) => Promise<void>): void {
    const peer = this.peer(userId);
    peer.queue = peer.queue.then(() => run(peer)).catch(() => undefined);
  }

  private peer(userId: number): Peer {
    const known = this.peers.get(userId);
    if (known) return known;
    const pc = new RTCPeerConnection({ iceServers: this.info.iceServers });
    const peer: Peer = { pc, stream: new MediaStream(), pending: [], queue: Promise.resolve() };
    pc.addEventListener('icecandidate', (event) => {
      const found = event.candidate;
      if (found?.candidate)
        this.signal(userId, {
          candidate: {
            candidate: found.candidate,
            sdpMid: found.sdpMid,
            sdpMLineIndex: found.sdpMLineIndex,
            usernameFragment: found.usernameFragment,
          },
        });
    });
    pc.addEventListener('track', (event) => {
      peer.stream.addTrack(event.track);
      this.showRemotes();
    });
    this.peers.set(userId, peer);
    this.showRemotes();
    return peer;
  }

  private drop(userId: number): void {
    const peer = this.peers.get(userId);
    if (!peer) return;
    this.peers.delete(userId);
    peer.pc.close();
    this.showRemotes();
  }

  private showRemotes(): void {
    this.set({
      remotes: [...this.peers.entries()].map(([userId, peer]) => ({
        userId,
        stream: peer.stream,
      })),
    });
  }

  private set(change: Partial<CallState>): void {
    this.state = { ...this.state, ...change };
    for (const listener of this.listeners) listener();
  }
}
