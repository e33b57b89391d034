import { sniffAudioFormat } from './audio-format';

const bytes = (...parts: (string | number[])[]): Uint8Array =>
  Uint8Array.from(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'latin1')] : p)));
/** An MPEG-1 layer III frame header at 128 kb/s, 44.1 kHz: frames of 417 bytes. */
const MP3_HEADER = [0xff, 0xfb, 0x90, 0x00];
const frame = () => [...MP3_HEADER, ...new Array<number>(413).fill(0)];
/** An Ogg page header with one segment, then the codec's identification packet. */
const oggPage = (packet: string | number[]) => bytes('OggS', new Array<number>(22).fill(0), [1, 19], packet);

describe('sniffing the audio format from the first bytes', () => {
  it('recognises WAV, FLAC, Ogg Opus, Ogg Vorbis and MP3 (with or without an ID3 tag)', () => {
    expect(sniffAudioFormat(bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt '))).toBe('wav');
    expect(sniffAudioFormat(bytes('fLaC', [0, 0, 0, 34]))).toBe('flac');
    expect(sniffAudioFormat(oggPage('OpusHead'))).toBe('ogg_opus');
    expect(sniffAudioFormat(oggPage([1, ...Buffer.from('vorbis')]))).toBe('ogg_vorbis');
    expect(sniffAudioFormat(bytes(frame(), frame()))).toBe('mp3');
    expect(sniffAudioFormat(bytes('ID3', [4, 0, 0, 0, 0, 0, 4], [0, 0, 0, 0], frame(), frame()))).toBe('mp3');
    expect(sniffAudioFormat(bytes('ID3', [4, 0, 0, 0, 0, 0, 2], [0, 0], 'fLaC'))).toBe('flac');
  });

  it('refuses garbage, other containers, and a lone frame sync not followed by another frame', () => {
    expect(sniffAudioFormat(bytes('garbage garbage garbage'))).toBeNull();
    expect(sniffAudioFormat(bytes('RIFF', [0, 0, 0, 0], 'AVI '))).toBeNull();
    expect(sniffAudioFormat(oggPage([0x7f, ...Buffer.from('FLAC')]))).toBeNull();
    expect(sniffAudioFormat(bytes(frame(), [0x12, 0x34, 0x56, 0x78]))).toBeNull();
    expect(sniffAudioFormat(new Uint8Array(0))).toBeNull();
  });
});
