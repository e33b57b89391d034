import {
  header,
  headers,
  paramOf,
  parseDatagram,
  parseSipUri,
  responseTo,
  serialiseSipMessage,
  SipParseError,
  splitStream,
  uriOf,
} from './sip-message';

const INVITE = [
  'INVITE sip:+15551230000@trunk.example.com SIP/2.0',
  'v: SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bKa, SIP/2.0/UDP 10.0.0.2:5060;branch=z9hG4bKb',
  'Via: SIP/2.0/TCP 10.0.0.3;branch=z9hG4bKc',
  'f: "Alice, A." <sip:+15559870000@example.com>;tag=abc',
  't: <sip:+15551230000@trunk.example.com>',
  'i: call-1@10.0.0.1',
  'CSeq: 1 INVITE',
  'Record-Route: <sip:p1.example.com;lr>, <sip:p2.example.com;lr>',
  'c: application/sdp',
  'l: 4',
  '',
  'v=0\r\nEXTRA',
].join('\r\n');

describe('SIP messages', () => {
  it('parses compact forms, splits list headers, and reads the body by Content-Length', () => {
    const message = parseDatagram(Buffer.from(INVITE));
    if (message.kind !== 'request') throw new Error('not a request');
    expect(message.method).toBe('INVITE');
    expect(headers(message, 'Via')).toEqual([
      'SIP/2.0/UDP 10.0.0.1:5060;branch=z9hG4bKa',
      'SIP/2.0/UDP 10.0.0.2:5060;branch=z9hG4bKb',
      'SIP/2.0/TCP 10.0.0.3;branch=z9hG4bKc',
    ]);
    expect(headers(message, 'record-route')).toEqual(['<sip:p1.example.com;lr>', '<sip:p2.example.com;lr>']);
    expect(header(message, 'From')).toBe('"Alice, A." <sip:+15559870000@example.com>;tag=abc');
    expect(header(message, 'Call-ID')).toBe('call-1@10.0.0.1');
    expect(message.body).toBe('v=0\r');
  });

  it('serialises with a Content-Length it computes, and parses back to the same message', () => {
    const message = parseDatagram(Buffer.from(INVITE));
    message.body = 'v=0\r\ns=é\r\n';
    const again = parseDatagram(serialiseSipMessage(message));
    const withoutLength = (m: typeof message) => ({
      ...m,
      headers: m.headers.filter((h) => h.name !== 'Content-Length'),
    });
    expect(withoutLength(again)).toEqual(withoutLength(message));
    expect(header(again, 'Content-Length')).toBe(String(Buffer.byteLength(message.body)));
  });

  it('refuses malformed messages clearly', () => {
    expect(() => parseDatagram(Buffer.from('INVITE sip:x SIP/2.0\r\nVia: x\r\n\r\n'))).toThrow(SipParseError);
    expect(() => parseDatagram(Buffer.from('HELLO\r\n\r\n'))).toThrow(/start line/);
    expect(() => parseDatagram(Buffer.from(INVITE.replace('l: 4', 'l: 400')))).toThrow(/Content-Length/);
    expect(() => parseDatagram(Buffer.from('SIP/2.0 200 OK\r\nVia: a\r\n folded\r\n\r\n'))).toThrow(/Folded/);
  });

  it('cuts a TCP stream into messages, keeping a partial one for later', () => {
    const one = serialiseSipMessage(parseDatagram(Buffer.from(INVITE)));
    const stream = Buffer.concat([Buffer.from('\r\n\r\n'), one, one.subarray(0, 30)]);
    const { messages, rest } = splitStream(stream);
    expect(messages).toHaveLength(1);
    expect(rest.length).toBe(30);
    expect(splitStream(Buffer.concat([rest, one.subarray(30)])).messages).toHaveLength(1);
  });

  it('builds a response that copies the transaction headers and adds a To tag once', () => {
    const request = parseDatagram(Buffer.from(INVITE));
    if (request.kind !== 'request') throw new Error('not a request');
    const response = responseTo(request, 180, 'Ringing', 'xyz');
    expect(headers(response, 'Via')).toHaveLength(3);
    expect(paramOf(header(response, 'To') ?? '', 'tag')).toBe('xyz');
    expect(header(response, 'Content-Type')).toBeUndefined();
  });

  it('reads URIs and parameters out of name-addrs', () => {
    expect(uriOf('"Bob" <sip:bob@host:5062;transport=tcp>;tag=1')).toBe('sip:bob@host:5062;transport=tcp');
    expect(paramOf('"Bob" <sip:bob@host;tag=no>;tag=1', 'tag')).toBe('1');
    expect(parseSipUri('sip:+1555@trunk.example.com:5080;transport=TCP')).toEqual({
      scheme: 'sip',
      user: '+1555',
      host: 'trunk.example.com',
      port: 5080,
      params: { transport: 'TCP' },
    });
    expect(() => parseSipUri('tel:+1555')).toThrow(SipParseError);
  });
});
