/*
 * The room's landing page, built on the web SDK (clients/web, served beside this file as
 * voice-agent.js): records the view, then on "Join" joins the room with joinRoom() (the microphone,
 * WHIP with the link's token, the agent's voice), shows the microphone's level and the transcript as
 * it is stored, and hangs up. Every request goes to the page's own origin. See docs/rooms.md.
 */
import { joinRoom } from './voice-agent.js';

const $ = (id) => document.getElementById(id);
const joinButton = $('join');
const base = location.pathname.replace(/\/+$/, '');
const roomUrl = base + location.search;

/** What the person holding the link reads when the call cannot start. */
const EXPLAINED = {
  microphone_refused: 'The call needs your microphone. Allow it in your browser, then join again.',
  microphone_unavailable: 'No microphone could be used. Connect one, then join again.',
  not_supported: 'This browser cannot make the call. Try a recent Chrome, Edge, Firefox or Safari.',
};

let call = null;
let meterTimer = 0;
/** "Hang up" pressed while the call was still connecting: it hangs up as soon as it is joined. */
let hangUpWanted = false;

function show(section) {
  for (const id of ['landing', 'call', 'ended']) $(id).hidden = id !== section;
}

function fail(message) {
  const box = $('error');
  box.textContent = message;
  box.hidden = false;
}

function addTurn(turn) {
  const item = document.createElement('li');
  item.className = turn.role === 'user' ? 'you' : 'agent';
  const who = document.createElement('span');
  who.className = 'who';
  who.textContent = turn.role === 'user' ? 'You' : 'Assistant';
  item.append(who, ' ', turn.content ?? '');
  $('transcript').append(item);
}

function finish(reason) {
  clearInterval(meterTimer);
  $('ended-reason').textContent = reason;
  show('ended');
}

async function join() {
  joinButton.disabled = true;
  $('error').hidden = true;
  show('call');
  $('status').textContent = 'Connecting…';
  try {
    call = await joinRoom(roomUrl, { audioElement: $('agent') });
  } catch (err) {
    if (hangUpWanted) return finish('You hung up. Thank you.');
    show('landing');
    joinButton.disabled = false;
    $('hangup').disabled = false;
    fail(EXPLAINED[err.code] ?? err.message ?? String(err));
    return;
  }
  $('status').textContent = 'Connected. The assistant can hear you.';
  meterTimer = setInterval(() => ($('level').value = Math.min(1, call.inputLevel * 4)), 100);
  call.on('agent_speaking', () => ($('status').textContent = 'Connected. The assistant is speaking.'));
  call.on('agent_silent', () => ($('status').textContent = 'Connected. The assistant can hear you.'));
  call.on('transcript', addTurn);
  call.on('ended', (end) =>
    finish(
      end.reason === 'hang_up'
        ? 'You hung up. Thank you.'
        : end.reason === 'connection_lost'
          ? 'The connection was lost.'
          : 'The assistant ended the call. Thank you.',
    ),
  );
  if (hangUpWanted) void call.hangUp();
}

if (joinButton) {
  // The landing was seen (recorded once per room; a reload records nothing more).
  fetch(base + '/view' + location.search, { method: 'POST' })
    .then(async (response) => {
      if (response.ok) return;
      joinButton.disabled = true;
      const body = await response.json().catch(() => null);
      fail(body?.error?.message ?? 'This call is not available (HTTP ' + response.status + ').');
    })
    .catch(() => undefined);
  joinButton.addEventListener('click', () => void join());
  $('hangup').addEventListener('click', () => {
    $('hangup').disabled = true;
    hangUpWanted = true;
    void call?.hangUp();
  });
}
