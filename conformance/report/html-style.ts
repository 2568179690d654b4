// The HTML report's stylesheet. Nothing may widen the page past a phone's 390 px: long words (URLs, bodies) break
// anywhere, tables become stacked blocks on narrow screens, and a curl line wraps between words, never inside a
// variable's name (a very long name breaks only after an underscore).
export const STYLE = `body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;overflow-wrap:anywhere}
table{border-collapse:collapse;width:100%;margin-bottom:1em}
td,th{border:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top;overflow-wrap:anywhere}
tbody.passed td.outcome{color:#17702a}tbody.failed td{background:#fde8e8}tbody.failed td.outcome{color:#b00020;font-weight:bold}
tbody.timed-out td{background:#fff0d6}tbody.blocked td{background:#eef0f8}tbody.skipped td{color:#777}
tr.detail td{background:#fff6f6;font-size:13px}.evidence{margin-bottom:.8em}
code{white-space:pre-wrap;overflow-wrap:anywhere;background:#f4f4f4;padding:2px 4px}
.curl{margin:.3em 0}.curl pre{font:12px/1.4 ui-monospace,monospace;white-space:pre-wrap;overflow-wrap:anywhere;background:#f4f4f4;padding:4px 6px;margin:0}
.curl .var{white-space:nowrap}.curl .var.long{white-space:normal;overflow-wrap:normal}
.copy{display:block;margin:.2em 0;font-size:12px}
.tag{display:inline-block;font-size:11px;padding:0 .4em;margin-right:.4em;border:1px solid #999;border-radius:3px;color:#444;text-decoration:none}
.summary span{display:inline-block;margin-right:1.5em;font-size:16px}
#failed-rules{border:2px solid #b00020;padding:0 1em;margin-bottom:1.5em}
#failed-rules.none{border-color:#9bc4a4;background:#f1f8f2}
.cause h3{font-size:15px;margin:.8em 0 .3em}.cause ul{margin-top:0}
.filter a{margin-right:1em;display:inline-block}
.area-bar{display:flex;align-items:center;gap:.5em;margin:2px 0;max-width:32em}.area-bar>a{flex:0 0 5em}
.bar{display:flex;flex:1;min-width:0;height:1.1em;font-size:11px;color:#fff;text-align:center}.bar>span{min-width:1.2em}
.matrix{overflow-x:auto;max-width:100%}.matrix td.failed{background:#fde8e8;color:#b00020;font-weight:bold}.matrix td.passed{color:#17702a}
.bar .passed{background:#2e8b47}.bar .failed{background:#c62828}.bar .timed-out{background:#e08a00}.bar .blocked{background:#5c6bc0}.bar .skipped{background:#aaa}
@media (max-width:640px){body{margin:.6em}table,tbody,tr,td,th{display:block}thead{display:none}td,th{border-width:0 0 1px}tr.detail td{padding:4px}}`;
