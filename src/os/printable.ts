// Text shown to a person: a target, holder or purpose may come from any writer (a file name git
// lists, a claim a shell script wrote), and a character that breaks the line, hides itself or turns
// the text around it would make one target or holder display as another (`a\u202eb`). Human output
// shows such characters as escapes; JSON output keeps the exact strings.

/** Zero-width characters, bidirectional embeddings, overrides and isolates, the byte order mark. */
export const INVISIBLE = /[\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/;

const INVISIBLE_ALL = new RegExp(INVISIBLE.source, "g");

/** `\u202e` for U+202E: how an invisible or direction-changing character is shown. */
export function unicodeEscape(char: string): string {
  return `\\u${(char.codePointAt(0) as number).toString(16).padStart(4, "0")}`;
}

/** Text with its invisible and direction-changing characters shown as `\u202e`; control characters left as they are. */
export function showInvisible(text: string): string {
  return text.replace(INVISIBLE_ALL, unicodeEscape);
}

/** Text on one line, shown as it is: control characters as `\t`, `\n`, `\x1b`, invisible and direction-changing ones as `\u202e`. */
export function printable(text: string): string {
  const named: Record<string, string> = { "\t": "\\t", "\n": "\\n", "\r": "\\r" };
  return showInvisible(text.replace(/[\u0000-\u001f\u007f]/g, (char) => named[char] ?? `\\x${char.charCodeAt(0).toString(16).padStart(2, "0")}`));
}
