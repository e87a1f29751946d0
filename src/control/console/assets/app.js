// The console page: reads /events (Server-Sent Events, parsed here from a fetch stream so
// the bearer token can go in a header), draws each panel from its JSON document, shows how
// old each panel's data is, and sends the operator's actions to the control API.
'use strict';
(() => {
  const HOUR_MS = 3600 * 1000;
  const TOKEN_KEY = 'cutover.console.token';
  const state = {
    pollMs: 1000,
    offsetMs: 0,          // client clock minus server clock, from the last event
    panels: {},           // id -> {asOfMs, data, section}
    demo: [],
    probes: {},           // "pool|address" -> [{at, result}]: the server's probe history, last hour
    events: 0,            // events received (tests read it through window.cutoverConsole)
  };
  window.cutoverConsole = state;

  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (key === 'class') node.className = value;
      else if (key.startsWith('on')) node.addEventListener(key.slice(2), value);
      else node.setAttribute(key, value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  };
  const badge = (text, cls) => el('span', {class: 'badge ' + (cls || text)}, text);
  const serverNow = () => Date.now() - state.offsetMs;
  const token = () => sessionStorage.getItem(TOKEN_KEY) || '';
  const authHeaders = () => (token() ? {Authorization: 'Bearer ' + token()} : {});

  function ago(ms) {
    if (ms === null || ms === undefined || Number.isNaN(ms)) return '-';
    const s = Math.max(0, ms) / 1000;
    if (s < 10) return s.toFixed(1) + ' s';
    if (s < 120) return Math.round(s) + ' s';
    if (s < 7200) return Math.round(s / 60) + ' min';
    return Math.round(s / 3600) + ' h';
  }
  const agoIso = (iso) => (iso ? ago(serverNow() - Date.parse(iso)) + ' ago' : '-');

  // ---- connection and token ----
  function setConnection(text, cls) {
    const node = $('connection');
    node.textContent = text;
    node.className = 'connection ' + cls;
  }
  function notice(text) {
    const node = $('notice');
    node.hidden = !text;
    node.textContent = text || '';
  }
  $('token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const value = $('token').value.trim();
    if (value) sessionStorage.setItem(TOKEN_KEY, value);
    else sessionStorage.removeItem(TOKEN_KEY);
    $('token').value = '';
    showToken();
    restartStream();
  });
  function showToken() {
    $('token-state').textContent = token() ? 'token set for this tab' : 'no token';
  }

  function logAction(text) {
    const list = $('actions-log');
    list.prepend(el('li', {}, new Date().toISOString().slice(11, 19) + '  ' + text));
    while (list.children.length > 8) list.lastChild.remove();
  }

  async function act(method, path, body, what) {
    try {
      const response = await fetch(path, {
        method,
        headers: Object.assign({'Content-Type': 'application/json'}, authHeaders()),
        body: body === undefined ? '' : JSON.stringify(body),
      });
      const text = await response.text();
      if (response.status === 401) notice('That action needs the bearer token (control.token): enter it above.');
      logAction(`${what}: HTTP ${response.status} ${text.trim().slice(0, 200)}`);
    } catch (error) {
      logAction(`${what}: ${error}`);
    }
  }

  // ---- the event stream (WHATWG HTML §9.2.6 "Interpreting an event stream") ----
  let streamAbort = null;
  let retryMs = 2000;

  function dispatch(name, data) {
    state.events += 1;
    const doc = JSON.parse(data);
    if (doc.server_ms !== undefined) state.offsetMs = Date.now() - doc.server_ms;
    if (name === 'hello') {
      state.pollMs = doc.poll_ms || state.pollMs;
      state.demo = doc.demo_endpoints || [];
      $('title').textContent = doc.title;
      document.title = doc.title + ' console';
      state.probes = {};
      mergeProbes((doc.feeds || {}).probes);
      for (const [id, entry] of Object.entries(doc.panels)) setPanel(id, entry);
    } else if (name === 'panel') {
      setPanel(doc.id, doc);
    } else if (name === 'feed') {
      if (doc.id === 'probes') {
        mergeProbes(doc.data);
        const pools = state.panels.pools;
        if (pools) setPanel('pools', {as_of_ms: pools.asOfMs, data: pools.data});
      }
    } else if (name === 'fresh') {
      for (const [id, asOf] of Object.entries(doc.as_of_ms)) {
        if (state.panels[id]) state.panels[id].asOfMs = asOf;
      }
    }
    tick();
  }

  async function readStream(signal) {
    const response = await fetch('/events', {headers: authHeaders(), cache: 'no-store', signal});
    if (response.status === 401) {
      setConnection('token needed', 'token-needed');
      notice('This server wants the bearer token for reading too: enter it above.');
      return;
    }
    if (!response.ok) throw new Error('HTTP ' + response.status);
    setConnection('live', 'live');
    notice('');
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    let eventName = '';
    let data = [];
    for (;;) {
      const {value, done} = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, {stream: true});
      let match;
      while ((match = /\r\n|\r|\n/.exec(buffer))) {
        const line = buffer.slice(0, match.index);
        buffer = buffer.slice(match.index + match[0].length);
        if (line === '') {
          if (data.length) dispatch(eventName || 'message', data.join('\n'));
          eventName = '';
          data = [];
          continue;
        }
        if (line.startsWith(':')) continue;
        const colon = line.indexOf(':');
        const field = colon < 0 ? line : line.slice(0, colon);
        let fieldValue = colon < 0 ? '' : line.slice(colon + 1);
        if (fieldValue.startsWith(' ')) fieldValue = fieldValue.slice(1);
        if (field === 'event') eventName = fieldValue;
        else if (field === 'data') data.push(fieldValue);
        else if (field === 'retry' && /^\d+$/.test(fieldValue)) retryMs = Number(fieldValue);
      }
    }
  }

  async function streamLoop() {
    for (;;) {
      const controller = new AbortController();
      streamAbort = controller;
      try {
        await readStream(controller.signal);
      } catch (error) {
        if (controller.signal.aborted) return;
      }
      if (controller.signal.aborted) return;
      if (!$('connection').classList.contains('token-needed')) setConnection('reconnecting', 'reconnecting');
      await new Promise((resolve) => setTimeout(resolve, retryMs));
    }
  }
  function restartStream() {
    if (streamAbort) streamAbort.abort();
    streamLoop();
  }

  // ---- panels ----
  const renderers = {};
  const titles = {pools: 'Pools and endpoint health', zones: 'Zones and writes', replication: 'Replication',
                  monitor: 'Monitor: watched names', cluster: 'Cluster: vantages and etcd'};
  const order = ['pools', 'cluster', 'monitor', 'zones', 'replication'];

  function setPanel(id, entry) {
    let panel = state.panels[id];
    if (!panel) {
      const section = el('section', {class: 'panel', id: 'panel-' + id, 'data-panel': id},
                         el('header', {}, el('h2', {}, titles[id] || id), el('span', {class: 'age'}, '')),
                         el('div', {class: 'body'}));
      const main = $('panels');
      const rank = (name) => (order.indexOf(name) < 0 ? order.length : order.indexOf(name));
      const after = [...main.children].find((node) => rank(node.dataset.panel) > rank(id));
      main.insertBefore(section, after || null);
      panel = state.panels[id] = {section};
    }
    panel.asOfMs = entry.as_of_ms;
    panel.data = entry.data;
    const body = panel.section.querySelector('.body');
    const render = renderers[id] || ((data) => el('pre', {}, JSON.stringify(data, null, 2)));
    const drawn = entry.data && entry.data.error ? el('p', {class: 'notice'}, entry.data.error) : render(entry.data);
    body.replaceChildren(...[drawn].flat(2));
  }

  // A panel is stale when its data is older than a few polls (or, for data that is measured
  // on its own interval, than two of those intervals).
  function staleAfter(panel) {
    const interval = panel.data && panel.data.interval_ms ? panel.data.interval_ms : 0;
    return Math.max(3 * state.pollMs, 2 * interval + 3 * state.pollMs, 3000);
  }

  function tick() {
    $('clock').textContent = new Date(serverNow()).toISOString().slice(0, 19).replace('T', ' ') + ' UTC';
    for (const panel of Object.values(state.panels)) {
      const age = serverNow() - panel.asOfMs;
      const stale = age > staleAfter(panel);
      panel.section.classList.toggle('stale', stale);
      panel.section.querySelector('.age').textContent = (stale ? 'STALE: data is ' : 'data age ') + ago(age) +
          (stale ? ' old' : '');
    }
  }
  setInterval(tick, 250);

  // ---- pools ----
  // The probe feed: the server's history of the last hour in the first event, then the new
  // probes of each poll ({"endpoints": [{"pool", "address", "ticks": [[ms, result, latency, check]]}]}).
  function mergeProbes(feed) {
    if (!feed) return;
    const cut = serverNow() - HOUR_MS;
    for (const endpoint of feed.endpoints) {
      const key = endpoint.pool + '|' + endpoint.address;
      const list = state.probes[key] = state.probes[key] || [];
      for (const [at, result] of endpoint.ticks) list.push({at, result});
      while (list.length && list[0].at < cut) list.shift();
    }
  }

  function timeline(pool) {
    const now = serverNow();
    const from = now - HOUR_MS;
    const width = 1200, label = 110, row = 18;
    const x = (t) => label + ((Math.max(t, from) - from) / HOUR_MS) * (width - label);
    const rows = pool.endpoints.length;
    const ns = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('class', 'timeline');
    svg.setAttribute('viewBox', `0 0 ${width} ${rows * row + 14}`);
    const add = (tag, attrs, text) => {
      const node = document.createElementNS(ns, tag);
      for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
      if (text !== undefined) node.textContent = text;
      svg.append(node);
      return node;
    };
    pool.endpoints.forEach((endpoint, i) => {
      const y = i * row + 2;
      add('text', {x: 2, y: y + 11}, endpoint.address);
      // Each state lasts from its transition to the next (the first from the hour's start).
      const changes = (endpoint.transitions || []).map((t) => ({at: Date.parse(t.at), from: t.from, to: t.to}));
      // Nothing is drawn before the first verdict after the server started (its "from" is
      // unknown): the server did not exist then, and the page does not pretend it knew.
      let start = from;
      let current = changes.length ? changes[0].from : endpoint.health;
      changes.forEach((change, index) => {
        const known = !(index === 0 && change.from === 'unknown');
        if (known && change.at > from) add('rect', {x: x(start), y, width: Math.max(0, x(change.at) - x(start)),
                                                   height: row - 4, class: current});
        start = Math.max(from, change.at);
        current = change.to;
      });
      add('rect', {x: x(start), y, width: Math.max(1, x(now) - x(start)), height: row - 4, class: current});
      for (const probe of state.probes[pool.name + '|' + endpoint.address] || []) {
        add('line', {x1: x(probe.at), x2: x(probe.at), y1: y + row - 4, y2: y + row - 1, class: 'probe ' + probe.result});
      }
    });
    const axis = rows * row + 12;
    add('text', {x: label, y: axis}, '-60 min');
    add('text', {x: label + (width - label) / 2 - 12, y: axis}, '-30 min');
    add('text', {x: width - 24, y: axis}, 'now');
    return svg;
  }

  // The measured client terms of a lab run (serve --lab-results) beside D and K.
  function clientTerms(terms) {
    if (!terms || !terms.lab_run) {
      return el('p', {class: 'client-terms muted'}, 'client terms C, R: no lab run was given (cutover serve --lab-results FILE)');
    }
    const secs = (value) => (value === null || value === undefined ? 'unbounded' : value.toFixed(1) + ' s');
    const worst = terms.worst_d_plus_k_plus_c_plus_r_ms;
    return el('div', {class: 'client-terms'},
        el('small', {}, `client terms from the lab run ${terms.lab_run}; worst D+K+C+R ` +
                        (worst === null ? 'unbounded' : (worst / 1000).toFixed(1) + ' s')),
        el('table', {class: 'clients'},
           el('tr', {}, ['lab client', 'runtime', 'C (own cache)', 'R (connection reuse)', 'D+K+C+R'].map((h) => el('th', {}, h))),
           terms.clients.map((c) => el('tr', {'data-client': c.id},
               el('td', {}, c.id), el('td', {}, `${c.runtime} ${c.version}`),
               el('td', {title: c.c_basis}, secs(c.c_s)),
               el('td', {title: c.r_basis}, c.r_measured ? secs(c.r_s) : 'not measured (no E11 case)'),
               el('td', {}, c.worst_d_plus_k_plus_c_plus_r_ms === null ? 'unbounded'
                                                                      : (c.worst_d_plus_k_plus_c_plus_r_ms / 1000).toFixed(1) + ' s')))));
  }

  // A steered pool (docs/steering.md): each region's clients' answer per family, and where it
  // comes from when that is not the region itself (another region of its order, or the whole
  // pool).
  function regionsTable(steering) {
    const rows = steering.regions.map((region) => el('tr', {'data-region': region.name},
        el('td', {}, region.name + (region.name === steering.default_region ? ' (default)' : '')),
        el('td', {class: 'order'}, (region.order || []).join(' → ')),
        el('td', {}, Object.entries(region.answer).map(([family, answer]) => {
          const from = answer.region === region.name ? '' : answer.region ? `from ${answer.region}` : 'from the whole pool';
          return el('div', {class: 'answer', 'data-family': family},
              family + ' ', el('span', {class: 'addresses'}, answer.addresses.join(' ') || '(no data)'), ' ',
              badge(answer.mode), from ? [' ', el('span', {class: 'from'}, from)] : '');
        }))));
    return el('div', {class: 'regions'},
        el('p', {}, `steered by ${steering.networks} (${steering.prefixes} prefixes)`),
        el('table', {class: 'regions'}, el('tr', {}, ['region', 'order', 'answer'].map((h) => el('th', {}, h))), rows));
  }

  renderers.pools = (data) => {
    const out = [];
    if (state.demo.length) {
      out.push(el('p', {class: 'demo'}, 'Demo endpoints: ', state.demo.map((address) => el('span', {class: 'actions'},
          el('button', {'data-demo': address, 'data-action': 'stop',
                        onclick: () => act('POST', `/demo/endpoints/${address}/stop`, undefined, `stop ${address}`)},
             'stop ' + address),
          el('button', {'data-demo': address, 'data-action': 'start',
                        onclick: () => act('POST', `/demo/endpoints/${address}/start`, undefined, `start ${address}`)},
             'start ' + address)))));
    }
    if (!data.pools.length) out.push(el('p', {class: 'muted'}, 'No pools are configured.'));
    for (const pool of data.pools) {
      const answers = Object.entries(pool.answer).map(([family, answer]) => el('div', {class: 'answer', 'data-family': family},
          family + ' ', el('span', {class: 'addresses'}, answer.addresses.join(' ') || '(no data)'), ' ',
          badge(answer.mode), ` ttl ${answer.ttl}`, answer.per_query ? ' (drawn per query)' : ''));
      const d = pool.detection;
      const regions = pool.steering ? regionsTable(pool.steering) : '';
      const rows = pool.endpoints.map((endpoint) => {
        const last = endpoint.transitions && endpoint.transitions.length ? endpoint.transitions[endpoint.transitions.length - 1] : null;
        const probe = endpoint.last_probe;
        const action = (name) => el('button', {'data-action': name, onclick: () => act('POST',
            `/pools/${encodeURIComponent(pool.name)}/endpoints/${encodeURIComponent(endpoint.address)}/${name}`, undefined,
            `${name} ${pool.name} ${endpoint.address}`)}, name);
        return el('tr', {'data-endpoint': endpoint.address, class: 'state-' + endpoint.state},
            el('td', {}, `${endpoint.address}:${endpoint.port}`, el('br'), el('small', {}, endpoint.check)),
            el('td', {class: 'state'}, badge(endpoint.state), endpoint.serving ? '' : el('small', {}, ' not serving')),
            el('td', {}, 'health ', badge(endpoint.health), endpoint.override !== 'none' ? [' ', badge(endpoint.override)] : ''),
            el('td', {class: 'vantages'}, (endpoint.vantages || []).map((v) => el('div', {'data-vantage': v.name},
                v.name + ' ', badge(v.state)))),
            el('td', {}, probe ? [badge(probe.result, probe.result === 'pass' ? 'ok' : 'down'), ` ${probe.latency_ms.toFixed(1)} ms, `,
                                  agoIso(probe.at), probe.detail ? el('br') : '', probe.detail ? el('small', {}, probe.detail) : '']
                               : el('small', {}, 'no probe yet')),
            el('td', {class: 'last-change'}, last ? [`${last.from} → ${last.to}, ${agoIso(last.at)}`, el('br'),
                                                     el('small', {class: 'reason'}, last.reason)] : el('small', {}, 'none')),
            el('td', {class: 'actions'}, action('drain'), action('undrain'), action('force-up')));
      });
      out.push(el('div', {class: 'pool', 'data-pool': pool.name},
          el('h3', {}, pool.name, ' ', el('small', {}, `${pool.owner} · ${pool.shape} · TTL ${pool.ttl} s · ${pool.serve}`)),
          pool.steering ? '' : answers,  // a steered pool's answers are its regions'
          regions,
          el('p', {class: 'window'}, `cutover window: detection D ${(d.d_min_ms / 1000).toFixed(1)}–${(d.d_max_ms / 1000).toFixed(1)} s, ` +
             `cached answers K ≤ TTL ${d.ttl_s} s, worst D+K ${(d.worst_d_plus_k_ms / 1000).toFixed(1)} s; ${pool.queries || 0} queries`),
          clientTerms(pool.client_terms),
          el('table', {class: 'endpoints'},
             el('tr', {}, ['endpoint', 'state', 'health / override', 'vantages', 'last probe', 'last change (reason)', 'actions'].map((h) => el('th', {}, h))),
             rows),
          el('small', {class: 'muted'}, 'states and probes over the last hour (kept by the server)'),
          timeline(pool)));
    }
    return out;
  };

  // ---- zones, writes and replication ----
  renderers.zones = (data) => {
    if (!data.zones.length) return el('p', {class: 'muted'}, 'No zones.');
    return data.zones.map((zone) => el('div', {class: 'zone', 'data-zone': zone.zone, 'data-view': zone.view || ''},
        el('h3', {}, zone.zone, ' ', el('small', {}, (zone.view ? `view ${zone.view} · ` : '') + `serial ${zone.serial}` +
                                                     (zone.version !== undefined ? ` · journal version ${zone.version}` : ''))),
        zone.writes === undefined ? el('small', {class: 'muted'}, 'no journal: writes and history need writes.journal')
          : el('table', {class: 'writes'},
               el('tr', {}, ['version', 'serial', 'when', 'who', 'what', ''].map((h) => el('th', {}, h))),
               zone.writes.length ? zone.writes.map((w) => el('tr', {},
                   el('td', {}, w.version), el('td', {}, w.serial), el('td', {}, ago(serverNow() - w.at_ms) + ' ago'),
                   el('td', {}, w.who), el('td', {}, w.what),
                   el('td', {}, zone.undo && w.version > 1 ? el('button', {onclick: () => {
                     const where = zone.view ? `${zone.zone} in view ${zone.view}` : zone.zone;
                     if (window.confirm(`Undo ${where} back to version ${w.version - 1}? This writes a new version.`)) {
                       const query = zone.view ? `?view=${encodeURIComponent(zone.view)}` : '';
                       act('POST', `/zones/${encodeURIComponent(zone.zone)}/undo${query}`, {to: w.version - 1}, `undo ${where} to ${w.version - 1}`);
                     }
                   }}, 'undo this') : '')))
                 : el('tr', {}, el('td', {colspan: 6, class: 'muted'}, 'no writes yet')))));
  };

  renderers.replication = (data) => {
    if (!data.zones.length) return el('p', {class: 'muted'}, 'No zone is replicated (no notify, allow-transfer or primary).');
    return el('table', {},
        el('tr', {}, ['zone', 'role', 'serial', 'peers', 'state'].map((h) => el('th', {}, h))),
        data.zones.map((zone) => el('tr', {'data-zone': zone.zone},
            el('td', {}, zone.zone), el('td', {}, zone.role), el('td', {}, zone.serial),
            el('td', {}, zone.role === 'secondary' ? `primary ${zone.primary}`
                                                   : `notify ${zone.notify.join(', ') || '-'}; transfer to ${zone.allow_transfer.join(', ') || '-'}`),
            el('td', {}, zone.role === 'secondary' ? badge(zone.usable ? 'usable' : (zone.expired ? 'expired' : 'no copy yet'),
                                                           zone.usable ? 'usable' : 'unusable') : badge('serving', 'ok')))));
  };

  // ---- monitor ----
  function sparkline(history) {
    const ns = 'http://www.w3.org/2000/svg';
    const svg = document.createElementNS(ns, 'svg');
    svg.setAttribute('class', 'sparkline');
    svg.setAttribute('viewBox', '0 0 120 10');
    svg.setAttribute('width', '120');
    svg.setAttribute('height', '10');
    history.slice(-60).forEach((point, i) => {
      const rect = document.createElementNS(ns, 'rect');
      for (const [k, v] of Object.entries({x: i * 2, y: 0, width: 2, height: 10, class: point.agree ? 'agree' : 'mismatch'})) rect.setAttribute(k, v);
      svg.append(rect);
    });
    return svg;
  }

  renderers.monitor = (data) => {
    const round = data.last_round_unix ? data.last_round_unix * 1000 : null;
    const head = el('p', {}, `${data.rounds} rounds; last ${round ? ago(serverNow() - round) + ' ago' : 'not yet'}, ` +
                    `took ${(data.last_round_seconds || 0).toFixed(2)} s; `, badge(data.all_agree ? 'agree' : 'mismatch'));
    const watches = data.watches.map((watch) => {
      const key = watch.name + '|' + watch.type;
      const history = watch.history || [];  // the monitor's last rounds, kept by it
      return el('tr', {'data-watch': key},
          el('td', {}, watch.name, ' ', el('small', {}, watch.type)),
          el('td', {}, badge(watch.agree ? 'agree' : 'mismatch'), ' ', sparkline(history)),
          el('td', {class: 'answer'}, watch.reference || '(none)'),
          el('td', {}, watch.sources.map((s) => el('div', {},
              badge(s.status, s.status === 'ok' ? 'ok' : 'down'), ` ${s.role} ${s.server} `,
              el('small', {}, s.answered ? `${s.rcode} ${(s.answers || []).join(' ')} ttl ${s.ttl} ${s.rtt_ms.toFixed(1)} ms`
                                         : (s.timed_out ? 'timed out' : s.error))))));
    });
    const alerts = data.alerts.length
      ? el('ul', {}, data.alerts.map((a) => el('li', {}, badge(a.state), ` ${a.rule} ${a.subject}: ${a.message} (${Math.round(a.held_seconds)} s)`)))
      : el('p', {class: 'muted'}, 'No alert is pending or firing.');
    return [head, el('table', {}, el('tr', {}, ['name', 'agreement (last rounds)', 'reference answer', 'sources'].map((h) => el('th', {}, h))), watches),
            el('h3', {}, 'Alerts'), alerts];
  };

  // ---- cluster (docs/cluster.md, "Status and suspect vantages") ----
  renderers.cluster = (data) => {
    const etcd = data.etcd || {};
    const since = (text) => (text ? ago(serverNow() - Date.parse(text)) + ' ago' : 'never');
    const head = el('p', {}, `vantage ${data.vantage}, local checker ${data.local_checker ? 'on' : 'off'}, ` +
                    `suspect after ${(data.suspect_after_ms / 1000).toFixed(1)} s; etcd `,
                    etcd.reached ? badge('reached', 'up') : badge('unreachable', 'down'),
                    ` ${etcd.reached ? etcd.member : (etcd.last_error || '')} (last reached ${since(etcd.last_reached)}); ` +
                    `applied: verdicts revision ${data.verdicts_revision ?? '-'}, pool state revision ${data.pool_state_revision ?? '-'}`);
    const members = (etcd.members || []).map((m) => el('tr', {'data-member': m.url},
        el('td', {}, m.url),
        el('td', {}, m.reached ? badge(m.leader ? 'leader' : 'follower', 'up') : badge('unreachable', 'down')),
        el('td', {}, m.reached ? String(m.revision) : '-'),
        el('td', {}, m.reached ? `${m.raft_term} / ${m.raft_index}` : '-'),
        el('td', {}, m.reached ? m.version : el('small', {}, m.error || ''))));
    const vantages = (data.vantages || []).map((v) => el('tr', {'data-vantage': v.name},
        el('td', {}, v.name, ' ', el('small', {}, v.remote ? 'remote' : 'this server')),
        el('td', {}, since(v.last_verdict)),
        el('td', {}, `${v.reporting} of ${v.endpoints}`),
        el('td', {}, v.suspect ? [badge('suspect', 'down'), ' on ',
                                   v.suspect_on.map((at) => `${at.pool}/${at.endpoint}`).join(' ')]
                               : badge('trusted', 'up'))));
    return [head,
            el('table', {class: 'members'}, el('tr', {}, ['etcd member', 'role', 'revision', 'raft term / index', 'version']
                .map((h) => el('th', {}, h))), members),
            el('table', {class: 'vantages'}, el('tr', {}, ['vantage', 'last verdict', 'endpoints reporting', 'suspect']
                .map((h) => el('th', {}, h))), vantages)];
  };

  showToken();
  streamLoop();
})();
