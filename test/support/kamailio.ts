/**
 * Kamailio (Debian's `kamailio`) as a real SIP proxy in the path, on loopback: it challenges every
 * INVITE for digest authentication (407, qop=auth, realm `trunk.test`, password `s3cret`), adds a
 * Record-Route, relays to a fixed next hop, and routes in-dialog requests by their Route headers.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT } from './process';
import { freeUdpPort } from './sipp';

export interface Kamailio {
  port: number;
  output(): string;
  stop(): Promise<void>;
}

const MODULES = ['tm', 'sl', 'rr', 'pv', 'maxfwd', 'textops', 'siputils', 'xlog', 'auth'];

export async function startKamailio(nextHopPort: number): Promise<Kamailio> {
  const dir = mkdtempSync(join(tmpdir(), 'kamailio-'));
  const port = await freeUdpPort();
  return run(dir, port, proxyConfig(port, nextHopPort));
}

/**
 * Kamailio in front of several instances of the service: the configuration of docs/capacity.md
 * ("Several instances behind kamailio"), read from that file so that the documented one is the one
 * tested, with the instances' ports put in its dispatcher list.
 */
export async function startKamailioDispatcher(instancePorts: readonly number[]): Promise<Kamailio> {
  const dir = mkdtempSync(join(tmpdir(), 'kamailio-ds-'));
  const port = await freeUdpPort();
  const documented = readFileSync(join(REPO_ROOT, 'docs', 'kamailio', 'dispatcher.cfg'), 'utf8');
  const config = documented
    .replace(/^listen=.*$/m, `listen=udp:127.0.0.1:${port}`)
    .replace(/^alias=.*$/m, `alias="127.0.0.1:${port}"`)
    .replace(/^mpath=.*$/m, 'mpath="/usr/lib/x86_64-linux-gnu/kamailio/modules/"')
    .replace(/"list_file", "[^"]*"/, `"list_file", "${join(dir, 'dispatcher.list')}"`);
  writeFileSync(join(dir, 'dispatcher.list'), instancePorts.map((p) => `1 sip:127.0.0.1:${p}\n`).join(''));
  return run(dir, port, config);
}

function proxyConfig(port: number, nextHopPort: number): string {
  return `#!KAMAILIO
debug=2
log_stderror=yes
children=1
disable_tcp=yes
auto_aliases=no
listen=udp:127.0.0.1:${port}
alias="127.0.0.1:${port}"
mpath="/usr/lib/x86_64-linux-gnu/kamailio/modules/"
${MODULES.map((m) => `loadmodule "${m}.so"`).join('\n')}
request_route {
  if (!mf_process_maxfwd_header("10")) { sl_send_reply("483", "Too Many Hops"); exit; }
  if (has_totag()) {
    if (loose_route()) { t_relay(); exit; }
    if (is_method("ACK") && t_check_trans()) { t_relay(); }
    exit;
  }
  if (is_method("CANCEL")) { if (t_check_trans()) { t_relay(); } exit; }
  if (is_method("INVITE")) {
    if (!pv_proxy_authenticate("trunk.test", "s3cret", "0")) { proxy_challenge("trunk.test", "1"); exit; }
    consume_credentials();
    record_route();
    $du = "sip:127.0.0.1:${nextHopPort}";
    t_relay();
    exit;
  }
  sl_send_reply("405", "Method Not Allowed");
}
`;
}

async function run(dir: string, port: number, config: string): Promise<Kamailio> {
  writeFileSync(join(dir, 'kamailio.cfg'), config);
  const child = spawn('kamailio', ['-f', join(dir, 'kamailio.cfg'), '-DD', '-E', '-w', dir, '-Y', dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const deadline = Date.now() + 15_000;
  while (!/INFO: .*(init_tcp|main|sctp|listening on)/.test(output) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
  }
  await new Promise((r) => setTimeout(r, 500));
  return {
    port,
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
