// `partner-payments mcp` from the packed tarball (called last by check-package.mjs with the scratch
// project, since it installs the optional peer there): no entry but the bin's mcp chunk names
// @modelcontextprotocol/sdk; without the peer, `npx partner-payments mcp` says how to install it
// (exit 3) and `--help` works; with it installed as a partner would, the MCP SDK's own client
// starts `npx partner-payments mcp` over stdio against the installed mock bin and runs initialize,
// tools/list and one read tool. No output holds the client secret.
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { tsImport } from 'tsx/esm/api';
import { npm, root, run } from './pack.mjs';

/** The tools the server must list, by name and in order: the server's own one list. */
const { TOOLS } = await tsImport('../src/cli/mcp/tools/list.ts', import.meta.url);
const TOOL_NAMES = JSON.stringify(TOOLS.map((t) => t.name));

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

function expect(condition, message) {
  if (!condition) throw new Error(`partner-payments mcp: ${message}`);
}

/** Every file under `dir`, recursively. */
function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
  );
}

/** The installed mock bin, started; resolves with its banner's environment. */
function startMock(scratch) {
  const bin = join(scratch, 'node_modules', '.bin', 'partner-payments-mock');
  const child = spawn(bin, ['--port', '0', '--no-auto'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const env = new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the mock did not start:\n${out}`)), 30_000);
    child.stdout.on('data', (chunk) => {
      out += chunk;
      if (!out.includes('Press Ctrl+C')) return;
      clearTimeout(timer);
      // The banner's `PAYMENTS_*=` lines, as a partner pastes them into a .env file.
      const field = (name) => new RegExp(`^${name}=(\\S+)$`, 'm').exec(out)?.[1] ?? '';
      const names = [
        'PAYMENTS_BASE_URL',
        'PAYMENTS_AUTH_URL',
        'PAYMENTS_CLIENT_ID',
        'PAYMENTS_CLIENT_SECRET',
      ];
      resolve(Object.fromEntries(names.map((name) => [name, field(name)])));
    });
    child.once('exit', (code) => reject(new Error(`the mock exited with ${code}:\n${out}`)));
  });
  return { child, env };
}

/** The MCP SDK's client, in the scratch project, starting `npx partner-payments mcp`. */
const CLIENT = `
  import assert from 'node:assert';
  import { Client } from '@modelcontextprotocol/sdk/client/index.js';
  import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
  const transport = new StdioClientTransport({
    command: '${npx}',
    // Its keys in the scratch project, not in the per-user folder of whoever runs the check.
    args: ['partner-payments', 'mcp', '--state-dir', 'mcp-state'],
    env: process.env,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr.on('data', (c) => { stderr += c; });
  const client = new Client({ name: 'check-mcp', version: '1.0.0' });
  await client.connect(transport);
  const info = client.getServerVersion();
  assert.equal(info.name, 'partner-payments');
  const expected = ${TOOL_NAMES};
  const { tools } = await client.listTools();
  assert.deepEqual(tools.map((t) => t.name), expected);
  const result = await client.callTool({ name: 'list_locations', arguments: { limit: 1 } });
  assert.ok(!result.isError, JSON.stringify(result));
  assert.equal(result.structuredContent.items.length, 1);
  const refused = await client.callTool({ name: 'charge', arguments: { idempotency_key: 'k' } });
  assert.match(refused.content[0].text, /read_only/);
  await client.close();
  const all = JSON.stringify({ tools, result, refused }) + stderr;
  assert.ok(!all.includes(process.env.PAYMENTS_CLIENT_SECRET), 'the client secret was printed');
  console.log(\`mcp: npx partner-payments mcp \${info.version}: initialize, \${tools.length} tools, list_locations ok, a write refused read-only\`);

  // The same over Streamable HTTP: npx partner-payments mcp --http 0 (a free loopback port).
  const { spawn } = await import('node:child_process');
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  // Its own process group: npx starts the bin as a child, and both must go at the end.
  const server = spawn('${npx}', ['partner-payments', 'mcp', '--http', '0', '--state-dir', 'mcp-state'], { env: process.env, detached: true });
  try {
    const url = await new Promise((resolve, reject) => {
      let err = '';
      const timer = setTimeout(() => reject(new Error('mcp --http did not start: ' + err)), 60_000);
      server.stderr.on('data', (c) => {
        err += c;
        const m = /serving (http:\\/\\/127\\.0\\.0\\.1:\\d+\\/mcp)/.exec(err);
        if (m) { clearTimeout(timer); resolve(m[1]); }
      });
      server.once('exit', (code) => reject(new Error('mcp --http exited ' + code + ': ' + err)));
    });
    const http = new Client({ name: 'check-mcp-http', version: '1.0.0' });
    await http.connect(new StreamableHTTPClientTransport(new URL(url)));
    const listed = await http.listTools();
    assert.deepEqual(listed.tools.map((t) => t.name), expected);
    const read = await http.callTool({ name: 'list_locations', arguments: { limit: 1 } });
    assert.ok(!read.isError, JSON.stringify(read));
    await http.close();
    // DNS rebinding: a foreign Host or Origin is refused before any tool runs; this machine's is not.
    const { request } = await import('node:http');
    const post = (headers) => new Promise((resolve, reject) => {
      const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } }, (res) => { res.resume(); resolve(res.statusCode); });
      req.on('error', reject);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }));
    });
    assert.equal(await post({ host: 'evil.example' }), 403, 'a foreign Host was not refused');
    assert.equal(await post({ origin: 'https://evil.example' }), 403, 'a foreign Origin was not refused');
    assert.equal(await post({}), 200, 'the control: the own request was refused');
    console.log(\`mcp: npx partner-payments mcp --http: \${listed.tools.length} tools and list_locations at \${url}; a foreign Host and Origin refused (403), the own request answered (200)\`);
  } finally {
    process.kill(-server.pid, 'SIGTERM');
    server.stderr.destroy();
  }
`;

/** Runs the checks against the package installed in `scratch` (and installs the MCP SDK there). */
export async function checkMcp(scratch) {
  const pkg = join(scratch, 'node_modules', 'partner-payments');
  const naming = files(join(pkg, 'dist'))
    .filter((f) => /\.(c?js)$/.test(f) && readFileSync(f, 'utf8').includes('@modelcontextprotocol/sdk'))
    .map((f) => relative(pkg, f));
  const allowed = (f) => f === 'dist/cli/partner-payments.js' || /^dist\/cli\/run-[\w-]+\.js$/.test(f);
  expect(naming.every(allowed), `only the bin's mcp chunk may name the MCP SDK, found: ${naming.join(', ')}`);
  expect(
    naming.some((f) => f.startsWith('dist/cli/run-')),
    'no mcp chunk in dist/cli',
  );

  const npxRun = (args, env = {}) =>
    spawnSync(npx, ['partner-payments', ...args], {
      cwd: scratch,
      env: { ...process.env, ...env },
      encoding: 'utf8',
      timeout: 120_000,
    });
  const help = npxRun(['mcp', '--help']);
  expect(
    help.status === 0 && help.stdout.includes('--allow-writes') && help.stdout.includes('--state-dir'),
    `mcp --help: ${help.status} ${help.stderr}`,
  );
  const mock = startMock(scratch);
  try {
    const env = await mock.env;
    const missing = npxRun(['mcp'], env);
    expect(
      missing.status === 3 && missing.stderr.includes('npm install @modelcontextprotocol/sdk'),
      `without the peer: exit ${missing.status}, ${missing.stderr}`,
    );
    console.log(
      'mcp: without @modelcontextprotocol/sdk, mcp --help works and mcp says how to install it (exit 3)',
    );

    const range = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).peerDependencies[
      '@modelcontextprotocol/sdk'
    ];
    run(
      npm,
      ['install', '--no-audit', '--no-fund', '--prefer-offline', `@modelcontextprotocol/sdk@${range}`],
      scratch,
    );
    writeFileSync(join(scratch, 'check-mcp.mjs'), CLIENT);
    process.stdout.write(
      run(process.execPath, ['check-mcp.mjs'], scratch, { env: { ...process.env, ...env } }),
    );
  } finally {
    mock.child.kill();
  }
}
