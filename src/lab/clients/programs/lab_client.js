// The lab's Node.js client (docs/lab.md, "Client runtimes"): one http.get per --interval,
// --count times, one JSON line per request on stdout. --keepalive shares one keep-alive
// http.Agent; without it every request gets a new agent and so a new connection. Lookups go
// through dns.lookup (glibc getaddrinfo); Node's own connection racing (autoSelectFamily,
// when this Node has it) is left at its default. Standard library only.
'use strict';
const http = require('http');

function kind(error) {
  switch (error.code) {
    case 'ECONNREFUSED': return 'refused';
    case 'ETIMEDOUT': case 'ETIMEOUT': case 'LAB_TIMEOUT': return 'timeout';
    case 'ECONNRESET': return 'reset';
    case 'ENOTFOUND': case 'EAI_AGAIN': return 'dns';
    default: return 'other';
  }
}

function main() {
  const args = process.argv.slice(2);
  if (args[0] === '--version') { console.log(process.version); return; }
  const options = { interval: 1, count: 1, timeout: null, keepalive: false };
  const url = args[0];
  for (let i = 1; i < args.length; ++i) {
    if (args[i] === '--interval') options.interval = Number(args[++i]);
    else if (args[i] === '--count') options.count = Number(args[++i]);
    else if (args[i] === '--connect-timeout') options.timeout = Number(args[++i]);
    else if (args[i] === '--keepalive') options.keepalive = true;
  }
  const shared = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const begin = Date.now();
  let index = 0;
  const next = () => {
    if (index >= options.count) { shared.destroy(); return; }
    const delay = begin + index * options.interval * 1000 - Date.now();
    index += 1;
    setTimeout(() => request(next), Math.max(0, delay));
  };
  const request = (done) => {
    const line = { t: Date.now() / 1000, peer: null, new_conn: null, origin: null, error: null, detail: '' };
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      process.stdout.write(JSON.stringify(line) + '\n');
      done();
    };
    const agent = options.keepalive ? shared : new http.Agent({ keepAlive: false });
    const req = http.get(url, { agent }, (res) => {
      const address = res.socket.remoteAddress;
      line.peer = address.includes(':') ? `[${address}]:${res.socket.remotePort}` : `${address}:${res.socket.remotePort}`;
      line.new_conn = !req.reusedSocket;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => { body += chunk; });
      res.on('end', () => { line.origin = body.trim(); line.detail = String(res.statusCode); finish(); });
    });
    req.on('error', (error) => {
      line.error = kind(error);
      line.detail = `${error.code || ''} ${error.message}`.slice(0, 200);
      finish();
    });
    if (options.timeout !== null) {
      req.on('socket', (socket) => {
        if (socket.connecting === false) return;
        const timer = setTimeout(() => {
          const error = new Error(`connect timeout after ${options.timeout} s`);
          error.code = 'LAB_TIMEOUT';
          req.destroy(error);
        }, options.timeout * 1000);
        socket.once('connect', () => clearTimeout(timer));
        socket.once('close', () => clearTimeout(timer));
      });
    }
  };
  next();
}

main();
