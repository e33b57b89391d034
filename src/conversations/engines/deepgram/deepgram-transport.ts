import type { DeepgramTransport, DeepgramTransportMessage } from '@deepgram/sdk';
import WebSocket from 'ws';

/**
 * The WebSocket under the Deepgram SDK's live socket, plugged in through its `transportFactory`
 * seam. It is the SDK's own Node transport (the `ws` library) but for one thing: a refused upgrade.
 * The SDK's built-in transport lets `ws` turn an HTTP answer to the upgrade (401 for a wrong key,
 * 400 for an unknown model or language) into an `error` event whose only trace is the text
 * "Unexpected server response: 401", then a close; the body, where Deepgram says why
 * (`{"err_code":"INVALID_AUTH","err_msg":"Invalid credentials."}`), is lost. Here the answer is read
 * (its first KB) and kept in `refusal` before the error is reported, so the adapter can name the
 * status and Deepgram's reason.
 */

/** An HTTP answer to the upgrade: its status and what the service said (err_msg, or the body's text). */
export interface UpgradeRefusal {
  status: number;
  detail: string;
}

const MAX_REFUSAL_BYTES = 1024;

export class DeepgramWsTransport implements DeepgramTransport {
  /** Set when the service answered the upgrade with an HTTP status instead of switching protocols. */
  refusal: UpgradeRefusal | null = null;
  private readonly ws: WebSocket;
  private readonly closeListeners: ((event: { code?: number; reason?: string }) => void)[] = [];
  private readonly errorListeners: ((error: Error) => void)[] = [];

  constructor(url: string, headers: Record<string, string>, protocols: string[]) {
    this.ws = new WebSocket(url, protocols, { headers, perMessageDeflate: false });
    this.ws.on('error', (err) => this.errorListeners.forEach((listener) => listener(err)));
    this.ws.on('close', (code, reason) => {
      const event = { code, reason: reason.toString('utf8') };
      this.closeListeners.forEach((listener) => listener(event));
    });
    this.ws.on('unexpected-response', (req, res) => {
      const chunks: Buffer[] = [];
      let length = 0;
      const done = (): void => {
        if (this.refusal) return;
        this.refusal = { status: res.statusCode ?? 0, detail: refusalDetail(Buffer.concat(chunks).toString('utf8')) };
        // Aborting the handshake now reports an error, then a close (1006), as `ws` does on its own.
        req.destroy();
        this.ws.terminate();
      };
      res.on('data', (chunk: Buffer) => {
        if (length < MAX_REFUSAL_BYTES) chunks.push(chunk);
        length += chunk.length;
      });
      res.on('end', done);
      res.on('error', done);
      res.on('close', done);
    });
  }

  send(data: DeepgramTransportMessage): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    if (data instanceof Blob) throw new Error('The Deepgram transport sends no Blob.');
    this.ws.send(data);
  }

  onOpen(listener: () => void): void {
    this.ws.on('open', listener);
  }

  onMessage(listener: (message: DeepgramTransportMessage) => void): void {
    // Text frames as strings (the SDK parses them as JSON), binary ones as bytes.
    this.ws.on('message', (data: Buffer, isBinary) => listener(isBinary ? data : data.toString('utf8')));
  }

  onError(listener: (error: Error) => void): void {
    this.errorListeners.push(listener);
  }

  onClose(listener: (event: { code?: number; reason?: string }) => void): void {
    this.closeListeners.push(listener);
  }

  isOpen(): boolean {
    return this.ws.readyState === WebSocket.OPEN;
  }

  close(code?: number, reason?: string): void {
    try {
      // ws refuses a reason over 123 bytes, and codes a client may not send (1005, 1006, …).
      const valid = code === 1000 || (code !== undefined && code >= 3000 && code <= 4999);
      this.ws.close(valid ? code : 1000, (reason ?? '').slice(0, 100));
    } catch {
      this.ws.terminate();
    }
  }
}

/** Deepgram's `err_msg` (and `err_code`), else the body's text, shortened. */
function refusalDetail(body: string): string {
  try {
    const parsed: unknown = JSON.parse(body);
    if (parsed && typeof parsed === 'object') {
      const { err_msg: message, err_code: code } = parsed as { err_msg?: unknown; err_code?: unknown };
      if (typeof message === 'string') return typeof code === 'string' ? `${message} (${code})` : message;
    }
  } catch {
    // not JSON: the text itself
  }
  return body.trim().slice(0, 300);
}
