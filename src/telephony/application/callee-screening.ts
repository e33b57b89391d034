import { type AmdResult, AnsweringMachineDetector } from '../domain/answering-machine-detector';
import type { PhoneMedia } from '../infra/rtp/rtp-call-media';
import type { SipCall } from '../infra/sip/sip-call';

/**
 * Listens to the callee of an outbound call until the answering-machine detector decides (at most
 * 12 s of audio): null when the call ended first. For a machine, `cue` resolves when its message
 * may start (after the beep, or the greeting's end; false: the call ended first).
 */
export async function screenCallee(
  call: SipCall<PhoneMedia>,
): Promise<{ result: AmdResult; decidedAfterMs: number; cue: Promise<boolean> } | null> {
  const detector = new AnsweringMachineDetector();
  let decide!: (d: { result: AmdResult; decidedAfterMs: number }) => void;
  let cued!: () => void;
  const decided = new Promise<{ result: AmdResult; decidedAfterMs: number }>((resolve) => (decide = resolve));
  const cue = new Promise<void>((resolve) => (cued = resolve));
  const stop = call.media.onFrame((frame) => {
    const event = detector.push(frame);
    if (event?.type === 'decided') {
      decide(event);
      if (event.result !== 'machine') stop();
    } else if (event?.type === 'message_cue') {
      stop();
      cued();
    }
  });
  const ended = call.ended.then(() => null);
  const outcome = await Promise.race([decided, ended]);
  if (!outcome) {
    stop();
    return null;
  }
  return { ...outcome, cue: Promise.race([cue.then(() => true), ended.then(() => false)]) };
}
