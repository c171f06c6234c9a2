// The markdown report and the compact summary on stderr.
'use strict';

const fmt = {
  int: (n) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '-'),
  ms: (n) => (Number.isFinite(n) ? n.toFixed(2) : '-'),
  ratio: (n) => (Number.isFinite(n) ? n.toFixed(2) : '-'),
  mb: (bytes) => (Number.isFinite(bytes) ? (bytes / 2 ** 20).toFixed(0) : '-'),
};

function scenarioTable(rows) {
  // the engine floor's columns only where a row was measured against the floor
  const floor = rows.some((r) => Number.isFinite(r.floorRps));
  const floorCells = (r) => (floor ? ` ${fmt.int(r.floorRps)} | ${fmt.ratio(r.floorRatio)} |` : '');
  return [
    `| scenario | conn. | expected | req/s | ceiling req/s | × ceiling |${floor ? ' floor req/s | × floor |' : ''} p50 ms | p90 ms | p99 ms | p99/p50 | requests | unexpected |`,
    `|---|---:|---:|---:|---:|---:|${floor ? '---:|---:|' : ''}---:|---:|---:|---:|---:|---|`,
    ...rows.map(
      (r) =>
        `| ${r.title} | ${r.connections} | ${r.expected} | ${fmt.int(r.rps)} | ${r.name === 'ceiling' ? fmt.int(r.rps) : fmt.int(r.ceilingRps)} | ${r.name === 'ceiling' ? '1.00' : fmt.ratio(r.ratio)} |${floorCells(r)} ${fmt.ms(r.p50)} | ${fmt.ms(r.p90)} | ${fmt.ms(r.p99)} | ${fmt.ratio(r.p99 / r.p50)} | ${fmt.int(r.requests)} | ${r.unexpectedText} |`,
    ),
  ];
}

/** A target's result: pass, FAIL, or `info` for a figure reported without a goal. */
const result = (t) => (t.info ? 'info' : t.pass ? 'pass' : '**FAIL**');

function targetTable(targets) {
  return [
    '| target | measured | goal | result |',
    '|---|---:|---:|---|',
    ...targets.map((t) => `| ${t.name} | ${t.measured} | ${t.goal} | ${result(t)} |`),
  ];
}

/**
 * report = { title, facts: [[label, value]], sections: [{ title, text?, rows?, lines? }], targets,
 *   errors }
 */
function markdown(report) {
  const out = [`# ${report.title}`, ''];
  out.push('| | |', '|---|---|', ...report.facts.map(([k, v]) => `| ${k} | ${v} |`), '');
  for (const section of report.sections) {
    out.push(`## ${section.title}`, '');
    if (section.text) out.push(section.text, '');
    if (section.rows && section.rows.length > 0) out.push(...scenarioTable(section.rows), '');
    if (section.lines) out.push(...section.lines, '');
  }
  if (report.targets.length > 0) {
    const goals = report.targets.filter((t) => !t.info);
    const failed = goals.filter((t) => !t.pass).length;
    out.push('## Targets', '');
    out.push(
      `${goals.length - failed} of ${goals.length} met${goals.length < report.targets.length ? ' (the `info` rows have no goal)' : ''}. A missed target is reported, not an error: the run exits non-zero only for errors and unexpected statuses.`,
      '',
    );
    out.push(...targetTable(report.targets), '');
  }
  if (report.errors.length > 0) {
    out.push('## Errors', '', ...report.errors.map((e) => `- ${e}`), '');
  }
  return out.join('\n');
}

function summaryLine(r) {
  const ratio = `${r.name === 'ceiling' ? '' : ` ×${fmt.ratio(r.ratio)}`}${Number.isFinite(r.floorRatio) ? ` floor ×${fmt.ratio(r.floorRatio)}` : ''}`;
  const bad = r.unexpectedCount > 0 ? `  UNEXPECTED ${r.unexpectedText}` : '';
  return `${`${r.name}@${r.connections}`.padEnd(24)} ${fmt.int(r.rps).padStart(7)} req/s${ratio.padEnd(7)}  p50 ${fmt.ms(r.p50)}  p90 ${fmt.ms(r.p90)}  p99 ${fmt.ms(r.p99)} ms${bad}`;
}

function summary(report, rows) {
  const lines = ['', `== ${report.title} ==`, ...rows.map(summaryLine)];
  if (report.extra) lines.push(...report.extra);
  for (const t of report.targets) {
    lines.push(
      t.info
        ? `info  ${t.name}: ${t.measured}`
        : `${t.pass ? 'pass' : 'FAIL'}  ${t.name}: ${t.measured} (goal ${t.goal})`,
    );
  }
  for (const e of report.errors) lines.push(`ERROR ${e}`);
  return `${lines.join('\n')}\n`;
}

module.exports = { fmt, markdown, summary, summaryLine };
