/*
 * The room's landing page: records the view, then on "Join" asks for the microphone, offers WebRTC
 * to the platform's WHIP endpoint (RFC 9725: POST application/sdp, the answer back, DELETE on the
 * session's Location to hang up), plays the agent and shows the microphone's level. Plain script,
 * no dependencies, every request to the page's own origin. See docs/rooms.md.
 */
'use strict';

(function () {
  const $ = (id) => document.getElementById(id);
  const joinButton = $('join');
  if (!joinButton) return; // an error page: nothing to do

  const base = location.pathname.replace(/\/+$/, '');
  const query = location.search;
  const whipUrl = base + '/whip' + query;
  /** How long to wait for the browser's own ICE candidates before offering without the rest. */
  const GATHER_TIMEOUT_MS = 3000;

  let pc = null;
  let stream = null;
  let audio = null;
  let meterTimer = 0;
  let resource = null;
  let ended = false;

  function show(section) {
    for (const id of ['landing', 'call', 'ended']) $(id).hidden = id !== section;
  }

  function say(text) {
    $('status').textContent = text;
  }

  function fail(message) {
    const box = $('error');
    box.textContent = message;
    box.hidden = false;
  }

  async function errorOf(response) {
    try {
      const body = await response.json();
      if (body && body.error && body.error.message) return body.error.message;
    } catch {
      // not JSON: the status says enough
    }
    return 'The call could not start (HTTP ' + response.status + ').';
  }

  // The landing was seen (recorded once per room; a reload records nothing more).
  fetch(base + '/view' + query, { method: 'POST' })
    .then(async (response) => {
      if (response.ok) return;
      joinButton.disabled = true;
      fail(await errorOf(response));
    })
    .catch(() => undefined);

  function watchLevel(source) {
    const AudioContextClass = window.AudioContext || window.webkitAudioContext;
    if (!AudioContextClass) return;
    audio = new AudioContextClass();
    const analyser = audio.createAnalyser();
    analyser.fftSize = 1024;
    audio.createMediaStreamSource(source).connect(analyser);
    const samples = new Float32Array(analyser.fftSize);
    const meter = $('level');
    meterTimer = setInterval(() => {
      analyser.getFloatTimeDomainData(samples);
      let sum = 0;
      for (const v of samples) sum += v * v;
      const rms = Math.sqrt(sum / samples.length);
      meter.value = Math.min(1, rms * 4);
    }, 100);
  }

  function gathered(connection) {
    return new Promise((resolve) => {
      if (connection.iceGatheringState === 'complete') return resolve();
      const timer = setTimeout(resolve, GATHER_TIMEOUT_MS);
      connection.addEventListener('icegatheringstatechange', () => {
        if (connection.iceGatheringState !== 'complete') return;
        clearTimeout(timer);
        resolve();
      });
    });
  }

  function release() {
    clearInterval(meterTimer);
    if (pc) pc.close();
    if (stream) for (const track of stream.getTracks()) track.stop();
    if (audio) audio.close().catch(() => undefined);
    pc = null;
    stream = null;
    audio = null;
  }

  function finish(reason) {
    if (ended) return;
    ended = true;
    release();
    if (reason) $('ended-reason').textContent = reason;
    show('ended');
  }

  async function join() {
    joinButton.disabled = true;
    $('error').hidden = true;
    try {
      stream = await navigator.mediaDevices.getUserMedia({ audio: true, video: false });
    } catch (err) {
      joinButton.disabled = false;
      fail('The call needs your microphone: ' + (err && err.message ? err.message : String(err)));
      return;
    }
    show('call');
    say('Connecting…');
    watchLevel(stream);
    pc = new RTCPeerConnection();
    for (const track of stream.getAudioTracks()) pc.addTransceiver(track, { direction: 'sendrecv', streams: [stream] });
    pc.addEventListener('track', (event) => {
      const player = $('agent');
      player.srcObject = event.streams[0] || new MediaStream([event.track]);
      player.play().catch(() => undefined);
    });
    pc.addEventListener('connectionstatechange', () => {
      if (!pc) return;
      if (pc.connectionState === 'connected') say('Connected. The assistant can hear you.');
      if (pc.connectionState === 'failed') finish('The connection was lost.');
    });
    await pc.setLocalDescription(await pc.createOffer());
    await gathered(pc);
    const response = await fetch(whipUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/sdp' },
      body: pc.localDescription.sdp,
    });
    if (response.status !== 201) throw new Error(await errorOf(response));
    const location = response.headers.get('Location');
    resource = location ? new URL(location, new URL(whipUrl, window.location.href)).toString() : null;
    await pc.setRemoteDescription({ type: 'answer', sdp: await response.text() });
  }

  async function hangUp() {
    if (ended) return;
    $('hangup').disabled = true;
    const target = resource;
    finish('You hung up. Thank you.');
    if (target) await fetch(target, { method: 'DELETE' }).catch(() => undefined);
  }

  joinButton.addEventListener('click', () => {
    join().catch((err) => {
      release();
      show('landing');
      fail(err && err.message ? err.message : String(err));
    });
  });
  $('hangup').addEventListener('click', () => void hangUp());
})();
