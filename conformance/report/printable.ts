// What a server answers reaches the console and every report. Control characters in it are shown, not obeyed: an
// escape sequence could retitle the terminal, hide lines or rewrite what was printed, and bidi overrides reorder
// what is read. Each becomes its \uXXXX spelling; newline and tab stay.

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

export const printable = (s: string): string => s.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
