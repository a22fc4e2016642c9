// Large heredoc bodies, set aside before the bash grammar reads a script. The grammar's heredoc
// scanner costs the square of a body's length (a 20 KB line takes it 3 s, a 100 KB one over a
// minute), and a hook that outlasts the agent's timeout lets the command run unjudged: an agent
// writing a big file with `cat > data.json <<'EOF'` would be let through. A large body is replaced
// by one line before the parse and given back where the walk reads it (heredocText): as the
// command's input, and, for an unquoted one, for the `$(…)` and backticks bash runs in it (the
// walk finds those in its text, as it does where the grammar leaves a body unread). The parse must
// then find each replaced body exactly where it was; otherwise the script is parsed as given,
// within the time the hook gives parsing (shell-walk.ts), past which it could write any file. The
// scanner's time is spent inside one step of the parse, where that deadline cannot stop it: a
// heredoc that cannot be set aside (two on one line, one with no end line) with more than
// UNREAD_LIMIT of the script after it is not parsed at all (`unread`): it could write any file.
import type Parser from "web-tree-sitter";
import type { Walk } from "./shell-words.js";

/** A body shorter than this is left in place: the grammar reads it in well under a millisecond. */
const LARGE = 2048;

/** The most of a script after a heredoc it cannot set aside that the grammar is given (a line this long takes it well under a second). */
const UNREAD_LIMIT = 8192;

/** A heredoc's start: `<<WORD`, `<<-WORD` (its lines' leading tabs removed), `<<'WORD'`, `<<"WORD"`, `<<\WORD` (not `<<<`). */
const START = /(?<!<)<<(?!<)(-?)[ \t]*(?:'([A-Za-z_][\w.-]*)'|"([A-Za-z_][\w.-]*)"|\\?([A-Za-z_][\w.-]*))(?=[\s;&|)<>]|$)/;

export interface SetAside {
  /** The script with each large body replaced by one line. */
  script: string;
  /** What each replaced body's node holds (its line and newline) to the body's text. */
  bodies: Map<string, string>;
  /** A heredoc it could not set aside has more of the script after it than the grammar reads in time. */
  unread: boolean;
}

export function setAsideHeredocs(script: string): SetAside {
  const bodies = new Map<string, string>();
  if (script.length < LARGE || !script.includes("<<")) return { script, bodies, unread: false };
  let tag = Math.random().toString(36).slice(2);
  while (script.includes(tag)) tag += "x";
  const lines = script.split("\n");
  const out: string[] = [];
  let unread = false;
  let offset = 0; // where the line after the current one starts in the script
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at] as string;
    out.push(line);
    offset += line.length + 1;
    const start = START.exec(line);
    if (!start) continue;
    const tabs = start[1] === "-";
    const delimiter = start[2] ?? start[3] ?? start[4];
    const end = lines.findIndex((each, index) => index > at && (tabs ? each.replace(/^\t+/, "") : each) === delimiter);
    // One heredoc on the line, with an end: with two, whose body comes first is the grammar's to say.
    if (line.split("<<").length !== 2 || end === -1) {
      unread ||= script.length - offset > UNREAD_LIMIT;
      continue;
    }
    const body = lines.slice(at + 1, end);
    const text = `${(tabs ? body.map((each) => each.replace(/^\t+/, "")) : body).join("\n")}\n`;
    offset += body.reduce((sum, each) => sum + each.length + 1, 0) + (lines[end] as string).length + 1;
    if (end === at + 1 || text.length < LARGE) {
      out.push(...lines.slice(at + 1, end + 1));
    } else {
      const placeholder = `claims_heredoc_${tag}_${bodies.size}`;
      bodies.set(`${placeholder}\n`, text);
      out.push(placeholder, lines[end] as string);
    }
    at = end;
  }
  return { script: bodies.size === 0 ? script : out.join("\n"), bodies, unread };
}

/** A body's text as the grammar gives it, as it is looked up: after `<<-`, the grammar adds the end line's tabs. */
const keyOf = (body: Parser.SyntaxNode) => body.text.replace(/\t+$/, "");

/** Whether the grammar found every replaced body where it was set aside: each a heredoc's whole body. */
export function bodiesInPlace(root: Parser.SyntaxNode, bodies: Map<string, string>): boolean {
  const found = new Set(root.descendantsOfType("heredoc_body").map(keyOf).filter((text) => bodies.has(text)));
  return found.size === bodies.size;
}

/** A heredoc body's text, the one set aside if it was. */
export function heredocText(body: Parser.SyntaxNode, walk: Walk): string {
  return walk.shared.heredocs?.get(keyOf(body)) ?? body.text;
}
