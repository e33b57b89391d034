/**
 * RTP packets (RFC 3550 section 5.1): the fixed 12-byte header, CSRCs, header extension and padding
 * skipped on parse; we send no CSRC, extension or padding.
 */
export interface RtpPacket {
  payloadType: number;
  marker: boolean;
  sequence: number;
  timestamp: number;
  ssrc: number;
  payload: Buffer;
}

/** Parses a datagram; null when it is not RTP version 2 or is truncated. */
export function parseRtp(data: Buffer): RtpPacket | null {
  if (data.length < 12) return null;
  const first = data.readUInt8(0);
  if (first >> 6 !== 2) return null;
  const padding = (first & 0x20) !== 0;
  const extension = (first & 0x10) !== 0;
  let offset = 12 + (first & 0x0f) * 4;
  if (extension) {
    if (data.length < offset + 4) return null;
    offset += 4 + data.readUInt16BE(offset + 2) * 4;
  }
  const end = padding ? data.length - data.readUInt8(data.length - 1) : data.length;
  if (offset > end) return null;
  return {
    payloadType: data.readUInt8(1) & 0x7f,
    marker: (data.readUInt8(1) & 0x80) !== 0,
    sequence: data.readUInt16BE(2),
    timestamp: data.readUInt32BE(4),
    ssrc: data.readUInt32BE(8),
    payload: data.subarray(offset, end),
  };
}

export function serialiseRtp(packet: RtpPacket): Buffer {
  const header = Buffer.alloc(12);
  header[0] = 0x80;
  header[1] = (packet.marker ? 0x80 : 0) | (packet.payloadType & 0x7f);
  header.writeUInt16BE(packet.sequence & 0xffff, 2);
  header.writeUInt32BE(packet.timestamp >>> 0, 4);
  header.writeUInt32BE(packet.ssrc >>> 0, 8);
  return Buffer.concat([header, packet.payload]);
}
