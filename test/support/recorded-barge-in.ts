/**
 * A barge-in read from a room call's dual-channel recording (16 kHz: the agent on one channel, the
 * participant on the other), as the room e2e specs check it: the participant's second utterance (the
 * first voiced frame after at least 1 s of their silence following the first), whether the agent was
 * speaking in the 500 ms before it, and how long the agent went on after it (until 300 ms of silence).
 */

/** Per 20 ms frame of 16 kHz samples: whether it is loud (speech: RMS above 300). */
export function voicedFrames(samples: ArrayLike<number>): boolean[] {
  const frames: boolean[] = [];
  for (let i = 0; i + 320 <= samples.length; i += 320) {
    let sum = 0;
    for (let j = i; j < i + 320; j++) sum += (samples[j] ?? 0) ** 2;
    frames.push(Math.sqrt(sum / 320) > 300);
  }
  return frames;
}

export interface RecordedBargeIn {
  /** The frame the participant's second utterance starts at; -1 when there is none. */
  secondStart: number;
  /** The agent had a voiced frame in the 25 frames (500 ms) before it. */
  agentWasSpeaking: boolean;
  /** From its start to the agent's last voiced frame before 300 ms of silence, in ms. */
  agentStopMs: number;
}

export function recordedBargeIn(agentChannel: ArrayLike<number>, userChannel: ArrayLike<number>): RecordedBargeIn {
  const agentVoiced = voicedFrames(agentChannel);
  const userVoiced = voicedFrames(userChannel);
  const firstStart = userVoiced.indexOf(true);
  let quiet = 0;
  let secondStart = -1;
  for (let f = firstStart; f >= 0 && f < userVoiced.length; f++) {
    if (!userVoiced[f]) quiet++;
    else if (quiet >= 50) {
      secondStart = f;
      break;
    } else quiet = 0;
  }
  if (secondStart < 0) return { secondStart, agentWasSpeaking: false, agentStopMs: 0 };
  let stop = secondStart;
  while (stop < agentVoiced.length && agentVoiced.slice(stop, stop + 15).some(Boolean)) stop++;
  return {
    secondStart,
    agentWasSpeaking: agentVoiced.slice(secondStart - 25, secondStart).some(Boolean),
    agentStopMs: (stop - secondStart) * 20,
  };
}
