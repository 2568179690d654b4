// The suite's reader of a CSV export (RFC 4180): quoted cells may hold commas, doubled quotes and line breaks. Any
// server's export is read, so a row may end with CRLF, LF or CR.

const CELL = /"((?:[^"]|"")*)"|([^",\r\n]*)/y;

export function readCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let at = 0;
  while (at < text.length) {
    CELL.lastIndex = at;
    const m = CELL.exec(text)!; // the second branch matches the empty cell, so this always matches
    row.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : m[2]!);
    at = CELL.lastIndex;
    const next = text[at];
    if (next === ',') at++;
    else {
      rows.push(row);
      row = [];
      if (next === '\r' && text[at + 1] === '\n') at += 2;
      else if (next !== undefined) at++;
    }
  }
  // Text ending in a comma: its last, empty cell.
  if (row.length) rows.push([...row, '']);
  return rows;
}
