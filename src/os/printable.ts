// Text shown to a person: a target, holder or purpose may come from any writer (a file name git
// lists, a claim a shell script wrote), and a character that breaks the line, hides itself or turns
// the text around it would make one target or holder display as another (`a\u202eb`). Human output
// shows such characters as escapes; JSON output keeps the exact strings.

/**
 * Zero-width characters, bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E-F,
 * U+202A-E, U+2066-9), the line and paragraph separators (U+2028-9), the soft hyphen, the combining
 * grapheme joiner, the Mongolian vowel separator, the deprecated format characters (U+206A-F), the
 * byte order mark, and the tag characters (U+E0000-7F: text hidden from a reader, not from a model).
 */
export const INVISIBLE = /[\u00ad\u034f\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\u{e0000}-\u{e007f}]/u;

/** Control characters, C0, DEL and C1 (U+0080-9F: U+0085 breaks a line, U+009B starts a terminal escape). */
export const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

const INVISIBLE_ALL = new RegExp(INVISIBLE.source, "gu");
const CONTROL_ALL = new RegExp(CONTROL.source, "g");

/** `\u202e` for U+202E (`\U000e0041` past U+FFFF, as bash's $'…' reads it): how an invisible or direction-changing character is shown. */
export function unicodeEscape(char: string): string {
  const code = (char.codePointAt(0) as number).toString(16);
  return code.length <= 4 ? `\\u${code.padStart(4, "0")}` : `\\U${code.padStart(8, "0")}`;
}

/** Text with its invisible and direction-changing characters shown as `\u202e`; control characters left as they are. */
export function showInvisible(text: string): string {
  return text.replace(INVISIBLE_ALL, unicodeEscape);
}

/**
 * Text quoted as JSON (its C0 control characters, `"` and `\` escaped by JSON.stringify) with what
 * JSON leaves as it is shown escaped too: DEL and C1 control characters, invisible and
 * direction-changing ones. JSON's own escapes are kept, not escaped again (`"tab\there"`, not
 * `"tab\\there"`): a literal backslash is doubled by JSON, so `\u200b` typed stays apart from
 * a zero-width space shown.
 */
export function quotedJson(text: string): string {
  return showInvisible(JSON.stringify(text).replace(/[\u007f-\u009f]/g, unicodeEscape));
}

/**
 * Text on one line, shown as it is: control characters as `\t`, `\n`, `\x1b` (C1 ones as `\u0085`,
 * which bash's $'…' reads back as the character, where `\x85` would be a byte), invisible and
 * direction-changing ones as `\u202e`; and a backslash that would read as one of these escapes
 * (before `u`, `U`, `x`, `t`, `n`, `r` or another backslash) doubled, so that the six characters
 * `a\u200bb` never show as a zero-width space does.
 */
export function printable(text: string): string {
  return escaped(text.includes("\\") ? text.replace(/\\(?=[uUxtnr\\])/g, "\\\\") : text);
}

function escaped(text: string): string {
  const named: Record<string, string> = { "\t": "\\t", "\n": "\\n", "\r": "\\r" };
  const escape = (char: string) => named[char] ?? (char.charCodeAt(0) >= 0x80 ? unicodeEscape(char) : `\\x${char.charCodeAt(0).toString(16).padStart(2, "0")}`);
  return showInvisible(text.replace(CONTROL_ALL, escape));
}

/**
 * Text of several lines (a message), each line's control and invisible characters escaped as
 * printable escapes them; its backslashes left as they are, since the targets and holders in a
 * message were made printable (or JSON-quoted) already, and a message is escaped once more here.
 */
export function printableLines(text: string): string {
  return text.split("\n").map(escaped).join("\n");
}
