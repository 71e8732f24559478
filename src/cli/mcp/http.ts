// `partner-payments mcp --http PORT`: Streamable HTTP at http://127.0.0.1:PORT/mcp, stateless (a
// new MCP server per request over the one shared client). It listens on 127.0.0.1 only, and a
// request whose Host is not a loopback name with this port, or whose Origin is another site, is
// refused with 403 before anything is parsed: a web page must not drive a local payment server
// through DNS rebinding (the MCP transport rules ask servers to validate Origin).
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isLoopbackHost } from '../../internal/loopback.js';
import { createServer, type Shared } from './server.js';

/** The largest request body read (a tool call's arguments are small). */
const MAX_BODY = 1024 * 1024;

/** Why a request is refused before it reaches MCP, or undefined to let it through. */
export function foreignRequest(host: string | undefined, origin: string | undefined, port: number) {
  if (!host || !sameLoopback(`http://${host}`, port)) return `Host ${host ?? '(none)'} is not this server`;
  if (origin !== undefined && !sameLoopback(origin, port)) return `Origin ${origin} is not this server`;
  return undefined;
}

function sameLoopback(text: string, port: number): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' && isLoopbackHost(url.hostname) && url.port === String(port);
  } catch {
    return false;
  }
}

function answer(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Serves MCP at /mcp on 127.0.0.1:`port` (0: any free port); resolves once it listens. */
export function serveHttp(shared: Shared, port: number, onError: (error: unknown) => void): Promise<Server> {
  const server = createHttpServer((req, res) => {
    const own = (server.address() as { port: number }).port;
    const refused = foreignRequest(req.headers.host, req.headers.origin, own);
    if (refused) return answer(res, 403, `Forbidden: ${refused} (DNS rebinding protection)`);
    if (new URL(req.url ?? '/', 'http://127.0.0.1').pathname !== '/mcp') {
      return answer(res, 404, 'Not found: the MCP endpoint is /mcp');
    }
    if (req.method !== 'POST') return answer(res, 405, 'Method not allowed: POST to /mcp', { allow: 'POST' });
    handle(shared, req, res).catch((error: unknown) => {
      onError(error);
      if (!res.headersSent) answer(res, 500, 'Internal error');
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

async function handle(shared: Shared, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const text = await readBody(req);
  if (text === undefined) return answer(res, 413, 'Request body too large');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return answer(res, 400, 'Parse error: the body is not JSON');
  }
  const mcp = createServer(shared);
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  res.on('close', () => {
    void transport.close();
    void mcp.close();
  });
  await mcp.connect(transport);
  await transport.handleRequest(req, res, body);
}
