import { AUDIO_LIMITS, audioHeaderProblem } from './audio-limits';

/** "fLaC" and a STREAMINFO block with the given max block size and channels. */
function flac(maxBlock: number, channels: number): Uint8Array {
  const b = new Uint8Array(8 + 34);
  b.set([0x66, 0x4c, 0x61, 0x43, 0x80, 0, 0, 34]);
  b[8] = 0x10; // min block 4096
  b[10] = maxBlock >> 8;
  b[11] = maxBlock & 0xff;
  b[8 + 12] = ((channels - 1) << 1) | 0; // 3 bits of channels - 1 after the rate's 20 bits
  return b;
}

/** The first Ogg page with one segment holding an identification header. */
function ogg(kind: 'opus' | 'vorbis', channels: number): Uint8Array {
  const id =
    kind === 'opus'
      ? [...Buffer.from('OpusHead'), 1, channels, 0, 0]
      : [1, ...Buffer.from('vorbis'), 0, 0, 0, 0, channels, 0x44, 0xac, 0, 0];
  const page = new Uint8Array(27 + 1 + id.length);
  page.set(Buffer.from('OggS'));
  page[26] = 1;
  page[27] = id.length;
  page.set(id, 28);
  return page;
}

describe('audioHeaderProblem', () => {
  it('takes FLAC of subset block sizes, refuses larger blocks', () => {
    expect(audioHeaderProblem(flac(4096, 2), 'flac')).toBeNull();
    expect(audioHeaderProblem(flac(AUDIO_LIMITS.maxFlacBlockSize, 8), 'flac')).toBeNull();
    expect(audioHeaderProblem(flac(65_535, 1), 'flac')).toMatch(/65535 samples are larger than 16384/);
  });

  it('refuses Ogg Opus and Vorbis of more than 8 channels', () => {
    expect(audioHeaderProblem(ogg('opus', 2), 'ogg_opus')).toBeNull();
    expect(audioHeaderProblem(ogg('vorbis', 8), 'ogg_vorbis')).toBeNull();
    expect(audioHeaderProblem(ogg('opus', 255), 'ogg_opus')).toMatch(/255 channels/);
    expect(audioHeaderProblem(ogg('vorbis', 9), 'ogg_vorbis')).toMatch(/9 channels/);
  });

  it('leaves what is not a recognisable header to the decoder, and WAV and MP3 alone', () => {
    expect(audioHeaderProblem(Buffer.from('OggS not really '.repeat(10)), 'ogg_opus')).toBeNull();
    expect(audioHeaderProblem(Buffer.from('fLaC'), 'flac')).toBeNull();
    expect(audioHeaderProblem(Buffer.from('RIFF'), 'wav')).toBeNull();
  });
});
