// Large heredoc bodies, set aside before the bash grammar reads a script. The grammar's heredoc
// scanner costs the square of a body's length (a 20 KB line takes it 3 s, a 100 KB one over a
// minute), and a hook that outlasts the agent's timeout lets the command run unjudged: an agent
// writing a big file with `cat > data.json <<'EOF'` would be let through. A body that runs and sets
// nothing (its delimiter quoted, or no `$(`, `${` or backtick in it) is replaced by one line before
// the parse and given back where the walk reads it (heredocText), as the command's input. The
// grammar must then find each replaced body as the whole body of the heredoc starting on the line
// before; a start it does not read as one at all (a `<<` in a comment or a quote) is left alone
// next time. The scanner spends its time inside one step of the parse, where the hook's parse
// deadline (shell-walk.ts) cannot stop it: a heredoc that is not set aside (one that expands, two on
// one command's line, an end the grammar and bash read differently; joinContinuations, which runs
// first, gives each one an end line and a line of its own where it can) with more than UNREAD_LIMIT
// of the script after it is not parsed at all (`unread`): it could write any file.
import { parentOf } from "./shell-tree.js";
import type Parser from "web-tree-sitter";
import type { Walk } from "./shell-words.js";

/** A body shorter than this is left in place: a line this long costs the grammar a few milliseconds. */
const LARGE = 512;

/** The most of a script after a heredoc it cannot set aside that the grammar is given (a line this long takes it well under a second). */
const UNREAD_LIMIT = 8192;

/**
 * A heredoc's start: `<<WORD`, `<<-WORD` (its lines' leading tabs removed), `<<'WORD'`, `<<"WORD"`,
 * `<<\WORD` (not `<<<`), the word ended by a blank, an operator or the line's end (a carriage
 * return is part of bash's delimiter, and so of no word read here).
 */
const START = /(?<!<)<<(?!<)(-?)[ \t]*(?:'([A-Za-z_][\w.-]*)'|"([A-Za-z_][\w.-]*)"|\\?([A-Za-z_][\w.-]*))(?=[ \t;&|)<>]|$)/;

export interface SetAside {
  /** The script with each large body replaced by one line. */
  script: string;
  /** What each replaced body's node holds (its line and newline) to the body's text, the row of that line, and the script's line its heredoc starts on. */
  bodies: Map<string, { text: string; row: number; start: number }>;
  /** A heredoc it could not set aside has more of the script after it than the grammar reads in time. */
  unread: boolean;
}

/**
 * The script with its large heredoc bodies set aside, but for the ones starting on the lines of
 * `skip` (an earlier try's that the grammar did not find where they were: a `<<` in a comment).
 */
export function setAsideHeredocs(script: string, skip: ReadonlySet<number> = new Set()): SetAside {
  const bodies = new Map<string, { text: string; row: number; start: number }>();
  if (script.length < LARGE || !script.includes("<<")) return { script, bodies, unread: false };
  let tag = Math.random().toString(36).slice(2);
  while (script.includes(tag)) tag += "x";
  const lines = script.split("\n");
  const out: string[] = [];
  let unread = false;
  let offset = 0; // where the line after the current one starts in the script
  const left = (from: number) => script.length - from > UNREAD_LIMIT;
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] as string;
    out.push(line);
    offset += line.length + 1;
    if (skip.has(at) || !line.includes("<<")) continue;
    const start = START.exec(line);
    // A `<<` that starts no heredoc this reads (`<<'END OF'`, `<<$x`, or none: `$((1<<2))`): the grammar's to read, if it can in time.
    if (!start) {
      unread ||= /(?<!<)<<(?!<)/.test(line) && left(offset);
      continue;
    }
    const tabs = start[1] === "-";
    const delimiter = start[2] ?? start[3] ?? start[4] as string;
    // The grammar ends a heredoc at the first line that starts with its delimiter (`EOF)` ends
    // `$(cat <<EOF`); bash only at one that is it. Set aside only where the two agree.
    let end = at + 1; // (looked for from here: from the top, 50,000 heredocs cost seconds)
    while (end < lines.length && !(tabs ? (lines[end] as string).replace(/^\t+/, "") : (lines[end] as string)).startsWith(delimiter)) end++;
    if (end === lines.length) end = -1;
    const exact = end !== -1 && (tabs ? (lines[end] as string).replace(/^\t+/, "") : lines[end]) === delimiter;
    const body = end === -1 ? [] : lines.slice(at + 1, end);
    const text = `${(tabs ? body.map((each) => each.replace(/^\t+/, "")) : body).join("\n")}\n`;
    // An unquoted body with `$(`, `${` or a backtick runs or sets what only the grammar reads.
    const expands = start[2] === undefined && start[3] === undefined && !start[0].includes("\\") && /\$[({]|`/.test(text);
    // One heredoc on the line (with two, whose body comes first is the grammar's to say), ended as both read it.
    if (line.split("<<").length !== 2 || !exact || expands) {
      unread ||= left(offset);
      continue;
    }
    offset += body.reduce((sum, each) => sum + each.length + 1, 0) + (lines[end] as string).length + 1;
    if (body.length === 0 || text.length < LARGE) {
      out.push(...lines.slice(at + 1, end + 1));
    } else {
      const placeholder = `claims_heredoc_${tag}_${bodies.size}`;
      bodies.set(`${placeholder}\n`, { text, row: out.length, start: at });
      out.push(placeholder, lines[end] as string);
    }
    at = end;
  }
  return { script: bodies.size === 0 ? script : out.join("\n"), bodies, unread };
}

/** A body's text as the grammar gives it, as it is looked up: after `<<-`, the grammar adds the end line's tabs. */
const keyOf = (body: Parser.SyntaxNode) => body.text.replace(/\t+$/, "");

/**
 * Where the grammar did not find a replaced body as the whole body of the heredoc starting on the
 * line before it: `skip`, the script's lines of those starts it does not read as a heredoc at all
 * (a `<<` in a comment or a quote: set aside without them next time); `otherwise`, whether it
 * reads one of them as a heredoc of other lines (then only the grammar can say which, and its
 * scanner would take too long on them).
 */
export function bodiesMissed(root: Parser.SyntaxNode, bodies: SetAside["bodies"]): { skip: Set<number>; otherwise: boolean } {
  const found = new Set<string>();
  for (const node of root.descendantsOfType("heredoc_body")) {
    const key = keyOf(node);
    const body = bodies.get(key);
    if (body === undefined || node.startPosition.row !== body.row) continue;
    const parent = parentOf(node);
    if (parent?.type === "heredoc_redirect" && parent.startPosition.row === body.row - 1) found.add(key);
  }
  const starts = new Set(root.descendantsOfType("heredoc_redirect").map((node) => node.startPosition.row));
  const missed = [...bodies.entries()].filter(([key]) => !found.has(key)).map(([, body]) => body);
  return { skip: new Set(missed.map((body) => body.start)), otherwise: missed.some((body) => starts.has(body.row - 1)) };
}

/** A heredoc body's text, the one set aside if it was. */
export function heredocText(body: Parser.SyntaxNode, walk: Walk): string {
  return walk.shared.heredocs?.get(keyOf(body)) ?? body.text;
}
