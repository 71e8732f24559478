/** HTTP/1.1 on a raw socket, as the chaos proxy speaks it: requests parsed, answers written. */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

export interface ParsedRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer;
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export function serialize(res: UpstreamResponse): Buffer {
  let head = `HTTP/1.1 ${res.status} ${STATUS_CODES[res.status] ?? 'Unknown'}\r\n`;
  for (const [name, value] of Object.entries(res.headers)) head += `${name}: ${value}\r\n`;
  head += `content-length: ${res.body.length}\r\nconnection: keep-alive\r\n\r\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), res.body]);
}

export function write(socket: Socket, res: UpstreamResponse): void {
  if (!socket.destroyed) socket.write(serialize(res));
}

export function jsonError(status: number, code: string, retryAfter: string): UpstreamResponse {
  const body = Buffer.from(
    JSON.stringify({ error: code, message: `chaos ${status}`, request_id: `req_chaos_${status}` }),
  );
  return { status, headers: { 'content-type': 'application/json', 'retry-after': retryAfter }, body };
}

export function htmlError(status: number): UpstreamResponse {
  const body = Buffer.from(
    `<html><body><h1>${status} ${STATUS_CODES[status]}</h1><p>edge proxy</p></body></html>`,
  );
  return { status, headers: { 'content-type': 'text/html' }, body };
}

/** One complete request at the start of `buffer` (requests carry a Content-Length or no body). */
export function parseRequest(buffer: Buffer): { request: ParsedRequest; consumed: number } | undefined {
  const end = buffer.indexOf('\r\n\r\n');
  if (end === -1) return undefined;
  const lines = buffer.subarray(0, end).toString('latin1').split('\r\n');
  const [method = 'GET', path = '/'] = (lines[0] ?? '').split(' ');
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const length = Number(headers['content-length'] ?? 0);
  if (buffer.length < end + 4 + length) return undefined;
  const body = buffer.subarray(end + 4, end + 4 + length);
  return { request: { method, path, headers, body }, consumed: end + 4 + length };
}
