// crawlgate workbench: the page sends the draft to the API (debounced) and shows what the engine
// answers. No verdict is computed here. Every value from the robots.txt, the report or the
// user goes into the DOM as text (textContent), never as markup.
'use strict';
(function () {
  const $ = (id) => document.getElementById(id);
  const robots = $('robots');
  const backdrop = $('backdrop');
  const gutter = $('gutter');
  let state = null;
  let last = null; // the last check's answer
  let seq = 0; // answers to older requests are dropped
  let timer = 0;
  let origin = null;
  let selected = null; // "path\u0000label" of the selected cell
  let highlight = null; // the line highlighted in the editor
  let previous = new Map(); // cell key -> allowed, to mark flips between two answers

  function el(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function number(n) { return Number(n).toLocaleString('en-US'); }
  function setStatus(text, isError) {
    $('status').textContent = text;
    $('status').className = isError ? 'error' : '';
  }
  function linesOf(text) { return text.split(/\r\n|\r|\n/); }

  async function start() {
    const response = await fetch('/api/state');
    state = await response.json();
    $('source').textContent = 'Draft loaded from ' + state.source + '.';
    robots.value = state.robots;
    $('paths').value = state.paths.join('\n');
    $('max-paths').textContent = state.limits.max_paths;
    $('limit').textContent = 'Google reads only the first ' + number(state.limits.google_max_bytes) +
      ' bytes (500 KiB) of a robots.txt; the rest is ignored. Drafts of up to ' +
      number(state.limits.max_draft_bytes) + ' bytes are checked.';
    for (const profile of state.profiles) {
      const label = el('label');
      const box = el('input');
      box.type = 'checkbox';
      box.value = profile.name;
      box.checked = true;
      label.append(box, document.createTextNode(profile.label));
      label.title = 'robots.txt tokens: ' + (profile.tokens.concat('*')).join(' → ');
      $('profiles').append(label);
    }
    if (state.report) setUpReport(state.report);
    robots.addEventListener('input', () => { renderEditor(); schedule(); });
    robots.addEventListener('scroll', syncScroll);
    for (const id of ['paths', 'tokens']) $(id).addEventListener('input', schedule);
    $('profiles').addEventListener('change', schedule);
    $('matrix').addEventListener('click', (event) => selectCell(event.target.closest('td')));
    $('matrix').addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); selectCell(event.target.closest('td')); }
    });
    $('lint').addEventListener('click', (event) => {
      const item = event.target.closest('li');
      if (item && item.dataset.line) goToLine(Number(item.dataset.line));
    });
    $('download').addEventListener('click', download);
    renderEditor();
    check();
  }

  function setUpReport(report) {
    $('report-pane').hidden = false;
    for (const entry of report.origins) {
      const option = el('option', null, entry.origin + ' (' + entry.effect + ', ' + entry.urls + ' URLs)');
      option.value = entry.origin;
      $('origin').append(option);
    }
    origin = report.origin;
    if (origin) $('origin').value = origin;
    $('origin').addEventListener('change', () => { origin = $('origin').value; schedule(); });
    $('load-origin').addEventListener('click', () => {
      const entry = report.origins.find((o) => o.origin === origin);
      if (!entry) return;
      if (entry.body === null) {
        setStatus('The report does not list the whole robots.txt of ' + entry.origin + ': it cannot be edited from here.', true);
        return;
      }
      robots.value = entry.body;
      $('source').textContent = "Draft loaded from the report's robots.txt of " + entry.origin + '.';
      if (entry.paths.length) $('paths').value = entry.paths.join('\n');
      renderEditor();
      schedule();
    });
  }

  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(check, 150);
  }

  function paths() {
    return $('paths').value.split('\n').map((p) => p.trim()).filter((p) => p !== '').slice(0, state.limits.max_paths);
  }
  function bots() {
    const chosen = Array.from($('profiles').querySelectorAll('input:checked'), (box) => box.value);
    const typed = $('tokens').value.split(',').map((t) => t.trim()).filter((t) => t !== '');
    return chosen.concat(typed);
  }

  async function check() {
    const mine = ++seq;
    const request = { robots: robots.value, paths: paths(), bots: bots(), origin: origin };
    if (request.bots.length === 0) {
      setStatus('Choose at least one crawler.', true);
      return;
    }
    let response;
    let answer;
    try {
      response = await fetch('/api/check', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(request),
      });
      answer = await response.json();
    } catch (error) {
      if (mine === seq) setStatus('The workbench server does not answer: ' + error.message, true);
      return;
    }
    if (mine !== seq) return;
    if (!response.ok) {
      setStatus(answer.error || ('HTTP ' + response.status), true);
      return;
    }
    setStatus('');
    last = answer;
    render();
  }

  function render() {
    const size = number(last.bytes) + ' bytes, ' + number(last.lines) + ' lines';
    $('size').textContent = last.cut ? size + ": past Google's 500 KiB limit, the end is not read" : size;
    renderLint();
    renderMatrix();
    renderEditor();
    if (last.report) renderReport(last.report);
  }

  function issuesByLine() {
    const byLine = new Map();
    for (const issue of last ? last.lint : []) {
      if (issue.line === null) continue;
      if (!byLine.has(issue.line)) byLine.set(issue.line, []);
      byLine.get(issue.line).push(issue);
    }
    return byLine;
  }
  const RANK = { critical: 0, error: 1, warning: 2, notice: 3 };
  function worst(issues) {
    return issues.reduce((a, b) => (RANK[b.severity] < RANK[a.severity] ? b : a)).severity;
  }

  // The backdrop under the transparent textarea: the same lines in transparent text, with the
  // lint notes after them and the deciding line highlighted; the gutter numbers them.
  function renderEditor() {
    const byLine = issuesByLine();
    const lines = linesOf(robots.value);
    const back = document.createDocumentFragment();
    const numbers = document.createDocumentFragment();
    lines.forEach((text, index) => {
      const n = index + 1;
      const row = el('div', 'line');
      row.append(el('span', null, text));
      const number = el('div', null, n);
      const issues = byLine.get(n);
      if (issues) {
        const severity = worst(issues);
        row.classList.add('issue', 'sev-' + severity);
        number.classList.add('sev-' + severity);
        const words = issues.map((i) => i.rule.replace('robots/', '') + ': ' + i.message).join(' · ');
        row.append(el('span', 'note', words));
        number.title = words;
      }
      if (n === highlight) row.classList.add('deciding');
      back.append(row);
      numbers.append(number);
    });
    backdrop.replaceChildren(back);
    gutter.replaceChildren(numbers);
    syncScroll();
  }

  function syncScroll() {
    backdrop.scrollTop = robots.scrollTop;
    backdrop.scrollLeft = robots.scrollLeft;
    gutter.scrollTop = robots.scrollTop;
  }

  function goToLine(n) {
    highlight = n;
    const lines = linesOf(robots.value);
    let offset = 0;
    for (let i = 0; i < n - 1 && i < lines.length; i++) offset += lines[i].length + 1;
    const height = parseFloat(getComputedStyle(backdrop.firstChild || backdrop).height) || 20;
    const top = (n - 1) * height;
    if (top < robots.scrollTop || top > robots.scrollTop + robots.clientHeight - 2 * height) {
      robots.scrollTop = Math.max(0, top - 3 * height);
    }
    robots.setSelectionRange(offset, offset);
    renderEditor();
  }

  function renderLint() {
    const list = $('lint');
    list.replaceChildren();
    $('lint-count').textContent = last.lint.length === 0 ? 'no issue' : '(' + last.lint.length + ')';
    for (const issue of last.lint) {
      const item = el('li');
      item.append(el('span', 'tag sev-' + issue.severity, issue.severity));
      item.append(el('strong', null, issue.line === null ? 'file' : 'line ' + issue.line));
      item.append(document.createTextNode(' ' + issue.rule + ': ' + issue.message));
      if (issue.line !== null) item.dataset.line = issue.line;
      list.append(item);
    }
  }

  function groupWords(bot) {
    const lines = bot.group_lines.length ? ' (line ' + bot.group_lines.join(', ') + ')' : '';
    switch (bot.group) {
      case 'own': return 'own group' + lines;
      case 'fallback': return 'falls back to ' + bot.group_token + lines;
      case 'global': return (bot.tokens.length ? 'falls back to *' : 'the * group') + lines;
      default: return 'no group: all allowed';
    }
  }

  function renderMatrix() {
    const table = $('matrix');
    const head = el('thead');
    const top = el('tr');
    top.append(el('th', null, 'Path'));
    for (const bot of last.bots) {
      const th = el('th', null, bot.label);
      th.append(el('span', 'fallback', groupWords(bot)));
      th.title = 'tokens tried: ' + bot.tokens.concat('*').join(' → ');
      top.append(th);
    }
    head.append(top);
    const body = el('tbody');
    const seen = new Map();
    let info = null;
    for (const row of last.rows) {
      const tr = el('tr');
      const th = el('th', null, row.path);
      th.scope = 'row';
      if (row.matched !== row.path) th.title = 'matched as ' + row.matched;
      tr.append(th);
      row.cells.forEach((cell, column) => {
        const bot = last.bots[column];
        const key = row.path + '\u0000' + bot.label;
        const td = el('td', cell.allowed ? 'allowed' : 'disallowed', cell.allowed ? 'allowed' : 'disallowed');
        td.tabIndex = 0;
        td.dataset.key = key;
        td.dataset.path = row.path;
        td.dataset.bot = bot.label;
        if (cell.decided_by) {
          td.dataset.line = cell.decided_by.line;
          td.append(el('span', 'ln', 'line ' + cell.decided_by.line));
          td.title = 'line ' + cell.decided_by.line + ': ' + cell.decided_by.text;
        } else {
          td.title = 'no rule matches';
        }
        if (previous.has(key) && previous.get(key) !== cell.allowed) td.classList.add('flipped');
        if (key === selected) {
          td.classList.add('selected');
          info = describe(row, cell, bot);
          highlight = cell.decided_by ? cell.decided_by.line : null;
        }
        seen.set(key, cell.allowed);
        tr.append(td);
      });
      body.append(tr);
    }
    previous = seen;
    table.replaceChildren(head, body);
    if (info) $('cell-info').textContent = info;
  }

  function describe(row, cell, bot) {
    const verdict = cell.allowed ? 'allowed' : 'disallowed';
    const why = cell.decided_by ? 'by line ' + cell.decided_by.line + ': ' + cell.decided_by.text : '(no rule matches)';
    return bot.label + ' on ' + row.path + ': ' + verdict + ' ' + why + '; ' + groupWords(bot) + '.';
  }

  function selectCell(td) {
    if (!td || !td.dataset.key) return;
    selected = td.dataset.key;
    renderMatrix();
    if (highlight) goToLine(highlight); else renderEditor();
  }

  function side(verdict) {
    const span = el('span', verdict.allowed ? 'v-allowed' : 'v-disallowed', verdict.allowed ? 'allowed' : 'disallowed');
    const wrap = el('span');
    wrap.append(span);
    if (verdict.decided_by) {
      wrap.append(document.createTextNode(' — line ' + verdict.decided_by.line + ': '));
      wrap.append(el('code', null, verdict.decided_by.text));
    } else {
      wrap.append(document.createTextNode(' ' + verdict.reason.replace(/^(dis)?allowed /, '')));
    }
    return wrap;
  }

  function cellRow(cells) {
    const tr = el('tr');
    for (const cell of cells) {
      const td = el('td');
      if (cell instanceof Node) td.append(cell); else td.textContent = cell;
      tr.append(td);
    }
    return tr;
  }
  function headRow(names) {
    const head = el('thead');
    const tr = el('tr');
    for (const name of names) tr.append(el('th', null, name));
    head.append(tr);
    return head;
  }

  function renderReport(report) {
    const words = {
      rules: "Compared with the audit's robots.txt of " + report.origin + ' (' + report.robots_url + ') over the ' + number(report.urls) + ' URLs the audit knows there.',
      'allow-all': 'In the audit, ' + report.robots_url + ' decided nothing by its rules: ' + report.baseline_reason,
      'disallow-all': 'In the audit, ' + report.robots_url + ' decided nothing by its rules: ' + report.baseline_reason,
      unlisted: 'The report lists only part of ' + report.robots_url + ': the audit\'s verdicts cannot be recomputed, so no flip is shown.',
    };
    $('baseline').textContent = words[report.baseline] || '';
    const counts = $('counts');
    const body = el('tbody');
    for (const p of report.profiles) {
      body.append(cellRow([p.label, number(p.urls), number(p.newly_disallowed), number(p.newly_allowed)]));
    }
    counts.replaceChildren(headRow(['Audited crawler', 'URLs', 'Newly disallowed', 'Newly allowed']), body);

    $('flip-count').textContent = '(' + number(report.flips_total) + (report.flips_total > report.flips.length ? ', first ' + report.flips.length + ' listed)' : ')');
    const flips = el('tbody');
    for (const flip of report.flips) {
      const url = el('td', 'url', flip.url);
      const tr = cellRow([flip.profile, side(flip.before), side(flip.after)]);
      tr.prepend(url);
      flips.append(tr);
    }
    $('flips').replaceChildren(headRow(['URL', 'Crawler', 'Audit', 'Draft']), flips);

    const resolved = $('resolved');
    resolved.replaceChildren();
    $('resolved-count').textContent = '(' + report.resolved_total + ')';
    for (const f of report.resolved) {
      const item = el('li');
      item.append(el('span', 'tag sev-' + f.severity, f.rule), el('span', 'mono', f.url), document.createTextNode(' (' + f.profile + '): '));
      if (f.refused_url !== f.url) item.append(el('span', 'mono', f.refused_url), document.createTextNode(' '));
      item.append(side(f.before), document.createTextNode(' → '), side(f.after));
      resolved.append(item);
    }
    const created = $('created');
    created.replaceChildren();
    $('created-count').textContent = '(' + report.created_total + ')';
    for (const f of report.created) {
      const item = el('li');
      for (const rule of f.rules) item.append(el('span', 'tag', rule));
      item.append(el('span', 'mono', f.url), document.createTextNode(' (' + f.profile + '): '), side(f.after));
      created.append(item);
    }
    const changes = $('lint-changes');
    changes.replaceChildren();
    if (report.lint.length === 0) changes.append(el('li', 'muted', 'The same checks hold as in the audit.'));
    for (const c of report.lint) {
      const item = el('li');
      item.append(el('span', 'tag', c.rule));
      item.append(document.createTextNode(c.resolved
        ? 'resolved: ' + c.findings_before + ' finding(s) in the audit, none in the draft'
        : 'new: ' + c.issues_after + ' issue(s) in the draft, none in the audit'));
      changes.append(item);
    }
  }

  function download() {
    const blob = new Blob([robots.value], { type: 'text/plain' });
    const link = el('a');
    link.href = URL.createObjectURL(blob);
    link.download = 'robots.txt';
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }

  start().catch((error) => setStatus('Cannot start: ' + error.message, true));
})();
