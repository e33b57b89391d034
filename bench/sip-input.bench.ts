import { decodeUlaw } from '../src/kernel/audio/g711';
import { JitterBuffer } from '../src/kernel/media/jitter-buffer';
import { parseRtp } from '../src/telephony/infra/rtp/rtp-packet';
import { negotiate, parseSdp } from '../src/telephony/infra/rtp/sdp';
import { AllowedSources } from '../src/telephony/infra/sip/allowed-sources';
import { strongestChallenge } from '../src/telephony/infra/sip/digest';
import { parseDatagram, splitStream } from '../src/telephony/infra/sip/sip-message';
import { TCP_LIMITS } from '../src/telephony/infra/sip/sip-transport';
import { round2 } from './percentiles';
import type { BenchContext } from './support';

/**
 * What hostile input costs the process that runs SIP and media (docs/security.md, "SIP and RTP"), in
 * this process, on the platform's own code: the source check every datagram and RTP packet pays
 * before anything else, and the worst message of each kind the SIP fuzz sends (the largest, or the
 * one that makes the parser work hardest), in microseconds of CPU per message. Each figure is the
 * median of BENCH_SIP_INPUT_ROUNDS (5) rounds of many runs; a 20 ms media frame is 20,000 µs.
 */

const SOURCES = '54.172.60.0/30, 54.244.51.0/30, 168.86.128.0/18, 127.0.0.1';

function perCall(fn: (i: number) => void, runs: number): number {
  const rounds = Number(process.env.BENCH_SIP_INPUT_ROUNDS ?? 5);
  const figures: number[] = [];
  for (let i = 0; i < runs; i++) fn(i); // warm-up
  for (let r = 0; r < rounds; r++) {
    const start = process.cpuUsage();
    for (let i = 0; i < runs; i++) fn(i);
    const used = process.cpuUsage(start);
    figures.push((used.user + used.system) / runs);
  }
  figures.sort((a, b) => a - b);
  return round2(figures[Math.floor(figures.length / 2)] ?? 0);
}

const swallow = (fn: () => unknown): void => {
  try {
    fn();
  } catch {
    // A refused message: its cost is what is measured.
  }
};

const invite = (body: string, extraHeader = ''): Buffer =>
  Buffer.from(
    [
      'INVITE sip:+14155550100@127.0.0.1 SIP/2.0',
      'Via: SIP/2.0/UDP 127.0.0.1:5099;branch=z9hG4bKbench',
      'From: <sip:+15550001111@127.0.0.1>;tag=1',
      'To: <sip:+14155550100@127.0.0.1>',
      'Call-ID: bench@peer',
      'CSeq: 1 INVITE',
      ...(extraHeader ? [extraHeader] : []),
      'Content-Type: application/sdp',
      `Content-Length: ${Buffer.byteLength(body)}`,
      '',
      body,
    ].join('\r\n'),
  );

export function sipInputBench(ctx: BenchContext): Promise<object> {
  const sources = AllowedSources.parse(SOURCES);
  const strangers = Array.from({ length: 100_000 }, (_, i) => `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
  const sourceCheck = {
    allowed_cached_us: perCall(() => sources.allows('168.86.130.7'), 200_000),
    stranger_cached_us: perCall(() => sources.allows('203.0.113.9'), 200_000),
    // Every packet from a new address (a spoofed flood): the cache starts afresh every 4,096.
    stranger_uncached_us: perCall((i) => sources.allows(strangers[i % strangers.length] ?? ''), 100_000),
  };
  ctx.log(`source check: ${JSON.stringify(sourceCheck)}`);

  const manyTypes = `v=0\r\no=- 1 1 IN IP4 127.0.0.1\r\ns=-\r\nc=IN IP4 127.0.0.1\r\nt=0 0\r\nm=audio 40000 RTP/AVP ${Array.from({ length: 128 }, (_, i) => i).join(' ')}\r\n${Array.from({ length: 1500 }, (_, i) => `a=rtpmap:${i % 128} X${i}/8000`).join('\r\n')}\r\n`;
  const longLine = Buffer.from(`INVITE sip:x@y SIP/2.0\r\n${'Z'.repeat(60_000)}\r\n\r\n`);
  const manyHeaders = invite('', Array.from({ length: 2000 }, (_, i) => `X-H${i}: ${'v'.repeat(20)}`).join('\r\n'));
  const manyVias = invite('', `Via: ${Array.from({ length: 3000 }, (_, i) => `SIP/2.0/UDP h${i}`).join(', ')}`);
  const challenges = Array.from(
    { length: 200 },
    (_, i) => `Digest realm="r${i}", nonce="${'n'.repeat(100)}", algorithm=${i % 2 ? 'SHA-512-256' : 'X'}`,
  );
  const head16k = Buffer.from(`OPTIONS sip:x@y SIP/2.0\r\nX: ${'a'.repeat(TCP_LIMITS.headerBytes - 40)}`);
  const rtpBig = Buffer.alloc(1500, 0x7f);
  rtpBig[0] = 0x80;
  rtpBig[1] = 0;
  const rtpEmpty = Buffer.from([0x80, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1]);

  const worst = {
    // UDP: the largest datagram, one malformed 60 KB line (refused, quoted to 200 characters).
    malformed_60kb_line_us: perCall(() => swallow(() => parseDatagram(longLine)), 500),
    // 2,000 headers, and one Via of 3,000 comma-separated values.
    invite_2000_headers_us: perCall(() => swallow(() => parseDatagram(manyHeaders)), 200),
    invite_3000_vias_us: perCall(() => swallow(() => parseDatagram(manyVias)), 200),
    // An SDP with 128 payload types and 1,500 rtpmap lines, parsed and negotiated.
    sdp_1500_rtpmaps_us: perCall(() => swallow(() => negotiate(parseSdp(manyTypes), (h) => sources.allows(h))), 200),
    // A 401 with 200 challenges, none supported.
    digest_200_challenges_us: perCall(() => strongestChallenge(challenges), 500),
    // TCP: a 16 KB head sent one byte at a time, searched as the transport does (from where it stopped).
    tcp_16kb_head_bytewise_us: perCall(() => {
      let scanned = 0;
      for (let n = 1; n <= head16k.length; n++)
        scanned = splitStream(head16k.subarray(0, n), TCP_LIMITS, scanned).scanned;
    }, 5),
    // The same, searched from the start at each byte (as before decision 183): the quadratic cost avoided.
    tcp_16kb_head_bytewise_rescan_us: perCall(() => {
      for (let n = 1; n <= head16k.length; n++) splitStream(head16k.subarray(0, n), TCP_LIMITS, 0);
    }, 2),
    // RTP: a 1,500-byte packet parsed, decoded and buffered; an empty payload.
    rtp_1500_bytes_us: perCall(
      (() => {
        const jitter = JitterBuffer.playout();
        return (i: number) => {
          rtpBig.writeUInt16BE(i & 0xffff, 2);
          const packet = parseRtp(rtpBig);
          if (packet) jitter.push(packet.sequence, decodeUlaw(packet.payload));
          jitter.pull();
        };
      })(),
      20_000,
    ),
    rtp_empty_payload_us: perCall(
      (() => {
        const jitter = JitterBuffer.playout();
        return (i: number) => {
          rtpEmpty.writeUInt16BE(i & 0xffff, 2);
          const packet = parseRtp(rtpEmpty);
          if (packet) jitter.push(packet.sequence, decodeUlaw(packet.payload));
        };
      })(),
      200_000,
    ),
  };
  ctx.log(`worst message per kind: ${JSON.stringify(worst)}`);
  return Promise.resolve({
    unit: 'µs of CPU per message (median of rounds)',
    source_check: sourceCheck,
    worst_per_kind: worst,
  });
}
