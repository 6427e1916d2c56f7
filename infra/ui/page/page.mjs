// The status page: polls /status.json and draws it. No framework, no external asset; every
// value goes into the page as text (textContent, SVG attributes), never as markup.
/* global document, fetch, setTimeout */

const POLL_MS = 500;
const SVG = 'http://www.w3.org/2000/svg';

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  return fill(node, attributes, children);
}

function svg(tag, attributes = {}, ...children) {
  return fill(document.createElementNS(SVG, tag), attributes, children);
}

function fill(node, attributes, children) {
  for (const [name, value] of Object.entries(attributes))
    if (value !== undefined) node.setAttribute(name, String(value));
  for (const child of children.flat())
    if (child !== undefined && child !== null)
      node.append(typeof child === 'string' ? document.createTextNode(child) : child);
  return node;
}

const iso = (ms) => new Date(ms).toISOString();
const clock = (value) => new Date(value).toISOString().slice(11, 19) + 'Z';

function ago(ms, now) {
  const seconds = Math.max(0, Math.round((now - ms) / 1000));
  if (seconds < 120) return `${seconds}s ago`;
  if (seconds < 7200) return `${Math.round(seconds / 60)}m ago`;
  return `${Math.round(seconds / 3600)}h ago`;
}

const badge = (status) => el('span', { class: `status s-${status}`, 'data-status': status }, status);

function author(set) {
  const why = set.reason ? `: "${set.reason}"` : '';
  return `by ${set.by} at ${iso(set.at)}${why}`;
}

function controlLines(snapshot, profile, endpoint, now) {
  const line = (kind, text) => el('p', { class: 'control', 'data-control': kind }, text);
  const status = snapshot.controls.statuses.find((c) => c.profile === profile && c.endpoint === endpoint);
  const override = snapshot.controls.overrides.find((o) => o.profile === profile && o.endpoint === endpoint);
  const left = (until) => (until > now ? `ends in ${Math.ceil((until - now) / 60000)}m` : 'expired');
  return [
    status?.status === undefined ? null : line('runtime', `runtime: ${status.status} ${author(status.set)}`),
    override === undefined
      ? null
      : line(
          'override',
          `override: ${override.status} until ${iso(override.until)} (${left(override.until)}), ${author(override.set)}`,
        ),
  ];
}

function dnsLine(snapshot, profile) {
  const entry = snapshot.dns.names.find((n) => n.profile === profile);
  if (entry === undefined) return el('p', { class: 'dns muted' }, 'DNS: nothing published yet');
  const records =
    entry.records.length === 0
      ? entry.rcode === undefined
        ? 'no records'
        : entry.rcode
      : entry.records
          .map((r) => `${r.type} ${r.values.join(' ')}${r.policy ? ` ${r.policy}` : ''}`)
          .join(' · ');
  const how =
    snapshot.dns.from === 'server' ? `asked ${snapshot.dns.server} now` : 'published by the evaluator';
  return el(
    'p',
    { class: 'dns', 'data-dns': entry.name },
    `${entry.name} → ${records}  `,
    el('span', { class: 'muted' }, `(${how})`),
  );
}

function votes(endpoint) {
  return endpoint.votes.map((v) =>
    el(
      'span',
      { class: `vote vote-${v.vote}`, title: v.detail ?? '' },
      `${v.region} ${v.vote}${v.latencyMs === undefined ? '' : ` ${Math.round(v.latencyMs)}ms`}`,
    ),
  );
}

/** The certificate an HTTPS endpoint presents: days left, names and notAfter on hover. */
function certificate(endpoint) {
  const c = endpoint.certificate;
  if (c === undefined) return null;
  const left = c.daysLeft < 0 ? 'EXPIRED' : `${c.daysLeft} day${c.daysLeft === 1 ? '' : 's'} left`;
  return el(
    'div',
    { class: 'muted certificate', title: `${c.subject} (issuer ${c.issuer}), until ${iso(c.notAfter)}` },
    `certificate: ${left}`,
  );
}

function profileSection(snapshot, report, now) {
  const rows = report.endpoints.map((endpoint) =>
    el(
      'tr',
      { 'data-endpoint': `${report.profile}/${endpoint.endpoint}` },
      el('td', {}, endpoint.endpoint),
      el('td', {}, badge(endpoint.status), endpoint.stale ? el('span', { class: 'stale' }, ' stale') : null),
      el('td', { class: 'since', title: iso(endpoint.since) }, ago(endpoint.since, now)),
      el('td', {}, votes(endpoint), certificate(endpoint)),
      el('td', {}, endpoint.reason, controlLines(snapshot, report.profile, endpoint.endpoint, now)),
    ),
  );
  return el(
    'section',
    { class: 'profile', 'data-profile': report.profile },
    el(
      'h2',
      {},
      `${report.profile} `,
      badge(report.status),
      report.stale ? el('span', { class: 'stale' }, ' stale') : null,
      el('small', { title: iso(report.since) }, ` since ${ago(report.since, now)}`),
    ),
    controlLines(snapshot, report.profile, undefined, now),
    report.publishProblem === undefined
      ? null
      : el(
          'p',
          { class: 'problem' },
          `Route 53 refused its last change: ${report.publishProblem.reasons.join('; ')}`,
        ),
    dnsLine(snapshot, report.profile),
    el(
      'table',
      {},
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          ['endpoint', 'status', 'since', 'votes (per region)', 'reason'].map((h) => el('th', {}, h)),
        ),
      ),
      el('tbody', {}, rows),
    ),
  );
}

const subject = (t) => (t.endpoint === undefined ? `${t.profile} (profile)` : `${t.profile}/${t.endpoint}`);

/** A recovery's timing starts at its first passing check, any other's at its first failed check. */
const firstCheck = (timing) =>
  'firstPassingCheckAt' in timing
    ? { at: timing.firstPassingCheckAt, label: 'first passing check' }
    : { at: timing.firstFailedCheckAt, label: 'first failed check' };

/** A waterfall per transition: first failed (or passing) check → decided → submitted → in sync, on one scale. */
function chart(transitions) {
  const rows = transitions.slice(0, 12).map((t) => {
    const timing = t.timing;
    const first = firstCheck(timing);
    const start = Date.parse(first.at ?? timing.decidedAt);
    const points = [first.at, timing.decidedAt, timing.changeSubmittedAt, timing.inSyncAt].map((p) =>
      p === null ? null : Date.parse(p) - start,
    );
    return { t, points, expected: timing.expectedDetectToPublishMs, firstLabel: first.label };
  });
  if (rows.length === 0) return el('p', { class: 'muted' }, 'No transitions recorded in the last hour.');
  const spanMs = Math.max(1000, ...rows.flatMap((r) => [...r.points, r.expected].filter((p) => p !== null)));
  const label = 330;
  const width = 1000;
  const plot = width - label - 90;
  const rowHeight = 24;
  const top = 22;
  const height = top + rows.length * rowHeight + 6;
  const x = (ms) => label + (ms / spanMs) * plot;
  const step = niceStep(spanMs / 6);
  const grid = [];
  for (let ms = 0; ms <= spanMs; ms += step)
    grid.push(
      svg('line', { class: 'grid', x1: x(ms), x2: x(ms), y1: top - 4, y2: height }),
      svg('text', { x: x(ms), y: 12, 'text-anchor': 'middle' }, seconds(ms)),
    );
  const bars = rows.map(({ t, points, expected, firstLabel }, index) => {
    const y = top + index * rowHeight;
    const segments = [
      ['seg-detect', points[0], points[1], `${firstLabel} → decided`],
      ['seg-submit', points[1], points[2], 'decided → submitted'],
      ['seg-sync', points[2], points[3], 'submitted → in sync'],
    ]
      .filter(([, from, to]) => from !== null && to !== null)
      .map(([name, from, to, text]) =>
        svg(
          'rect',
          { class: name, x: x(from), y: y + 4, width: Math.max(2, x(to) - x(from)), height: rowHeight - 8 },
          svg('title', {}, `${text}: ${seconds(to - from)}`),
        ),
      );
    const total = t.timing.detectToPublishMs;
    return svg(
      'g',
      { 'data-transition-bar': t.eventId },
      svg(
        'text',
        { x: 0, y: y + rowHeight / 2 + 4 },
        `${clock(t.at)} ${subject(t)} ${t.from ?? '-'} → ${t.to}`,
      ),
      segments,
      expected === null
        ? null
        : svg(
            'line',
            { class: 'expected', x1: x(expected), x2: x(expected), y1: y + 1, y2: y + rowHeight - 1 },
            svg('title', {}, `formula: ${t.timing.expectedFormula}`),
          ),
      svg(
        'text',
        { x: x(Math.max(...points.filter((p) => p !== null))) + 6, y: y + rowHeight / 2 + 4 },
        total === null ? '' : seconds(total),
      ),
    );
  });
  return svg(
    'svg',
    { viewBox: `0 0 ${width} ${height}`, width: '100%', role: 'img', 'aria-label': 'transition timings' },
    svg('line', { class: 'axis', x1: label, x2: label, y1: top - 4, y2: height }),
    grid,
    bars,
  );
}

function niceStep(raw) {
  const power = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
}

const seconds = (ms) => `${(Math.round(ms / 100) / 10).toFixed(1)} s`;

function render(snapshot) {
  const now = Date.parse(snapshot.readAt);
  document.getElementById('source').textContent = `${snapshot.source} — DNS: ${
    snapshot.dns.from === 'server'
      ? `what the DNS server ${snapshot.dns.server} answers now`
      : 'the records the evaluator published (Route 53 is not asked)'
  }`;
  const updated = document.getElementById('updated');
  updated.className = '';
  updated.textContent = `updated ${clock(snapshot.readAt)}`;
  document
    .getElementById('profiles')
    .replaceChildren(
      ...(snapshot.profiles.length === 0
        ? [el('p', { class: 'muted' }, 'No profile evaluated yet.')]
        : snapshot.profiles.map((report) => profileSection(snapshot, report, now))),
    );
  document.getElementById('chart').replaceChildren(chart(snapshot.transitions));
  document
    .getElementById('transitions')
    .replaceChildren(
      ...snapshot.transitions.map((t) => el('li', { 'data-transition': t.eventId }, t.lines.join('\n'))),
    );
}

let lastText = '';
async function poll() {
  try {
    const response = await fetch('/status.json', { cache: 'no-store' });
    const text = await response.text();
    if (!response.ok) throw new Error(JSON.parse(text).error?.message ?? `HTTP ${response.status}`);
    render(JSON.parse(text));
    lastText = text;
  } catch (error) {
    const updated = document.getElementById('updated');
    updated.className = 'failed';
    updated.textContent = `not updated since ${lastText === '' ? 'the start' : clock(JSON.parse(lastText).readAt)}: ${error.message}`;
  } finally {
    setTimeout(poll, POLL_MS);
  }
}

poll();
