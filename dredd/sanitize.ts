// Text a server controls is shown, never obeyed: control characters (a terminal's escapes, a window-title change,
// a carriage return that overwrites a line, bidi overrides that reorder what is read) are written as visible escapes
// in the console and in every report file, and markup cannot leave the place a report file gives it.

/** C0 controls but tab and newline, DEL, C1 controls, and the invisible format characters that reorder or split text. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/g;

/** The text with every control character written as its `\uXXXX` spelling (as the suite writes them); tab and newline stay. */
export function escapeControls(text: string): string {
  return text.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Server text as Dredd's reporters may show it: controls escaped, a line that would close the markdown reporters'
 * code fence prefixed with `\`, and `]]>`, which would close the xunit reporter's CDATA section, written `]]\u003e`.
 */
export function reportSafe(text: string): string {
  return escapeControls(text)
    .replace(/^( {0,3})(`{3,}|~{3,})/gm, '$1\\$2')
    .replaceAll(']]>', ']]\\u003e');
}

/** A markdown report: no `<` left, so no viewer renders a tag (a `<script>`) that a server sent. */
export function markdownSafe(text: string): string {
  return escapeControls(text).replaceAll('<', '&lt;');
}
