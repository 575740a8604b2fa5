import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface SendResult {
  /** The receiver's status code; null when no response came. */
  httpStatus: number | null;
  error?: string;
  durationMs: number;
}

const USER_AGENT = 'provider-sandbox-webhooks';

/**
 * POSTs one signed event body on a fresh connection and reports the status code; never throws. The whole exchange
 * up to the response head is bounded by `timeoutMs`; the response body is read and thrown away.
 */
export function postWebhook(url: string, body: string, signature: string, timeoutMs: number, signal: AbortSignal): Promise<SendResult> {
  const started = Date.now();
  return new Promise((resolve) => {
    let req: ReturnType<typeof httpRequest> | undefined;
    let settled = false;
    const finish = (httpStatus: number | null, error?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ httpStatus, ...(error !== undefined ? { error } : {}), durationMs: Date.now() - started });
    };
    const timer = setTimeout(() => {
      finish(null, `no response within ${timeoutMs} ms`);
      req?.destroy();
    }, timeoutMs);
    timer.unref();

    try {
      const target = new URL(url);
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
      const payload = Buffer.from(body, 'utf8');
      req = send(target, {
        method: 'POST',
        agent: false,
        signal,
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'Content-Length': String(payload.length),
          'Content-Signature': signature,
          'User-Agent': USER_AGENT,
        },
      });
      req.on('response', (res) => {
        finish(res.statusCode ?? null);
        res.resume();
      });
      req.on('error', (e: NodeJS.ErrnoException) => finish(null, e.code ?? e.message));
      req.end(payload);
    } catch (e) {
      finish(null, e instanceof Error ? e.message : String(e));
    }
  });
}
