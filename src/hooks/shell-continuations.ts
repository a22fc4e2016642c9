// The text as bash reads it, before the grammar reads it.
//
// Bash removes a backslash-newline before it splits words, anywhere but in single quotes, a
// comment and a quoted heredoc's body: `r\<newline>m u.ts` is `rm u.ts`, `echo x > u\<newline>.ts`
// writes u.ts. The grammar keeps one between words, not inside a word, so the text is joined first.
//
// A heredoc's body is read by the line, not by the quote: `don't` in one must not open a quote for
// the rest of the script, nor a `hello \` line in a quoted one hide the end line after it.
//
// Bash reads a heredoc's body on the lines after the whole line that starts it: in
// `cat <<EOF > out.txt; rm -f u.ts` the `rm` is a command of its own, but the grammar reads no `;`
// or `&` after a heredoc's redirections and swallows what follows. Such a line is split at the
// separators between its commands (not inside quotes, `$(…)` or an expansion), and each body placed
// after the command it feeds: the same commands, in the same order. Quotes are followed as bash
// nests them: `git commit -m "$(cat <<'EOF'` starts a heredoc inside a double-quoted word.

interface Heredoc {
  delimiter: string;
  /** Any quote in the delimiter: the body is taken as it is, with no backslash-newline removed. */
  quoted: boolean;
  /** `<<-`: leading tabs do not count when the end line is looked for. */
  strip: boolean;
  /** The part of its line (split at `;` and `&`) it belongs to, or where `at` is. */
  part: number;
  /** Where its body goes when that `$(…)` closes on the same line (`x=$(cat <<EOF); rm f`): before the `)`, at this offset of its part. */
  at?: number;
}

/**
 * Where the scanner is: in a quote (`'…'`, `"…"`, `$'…'`); in a command substitution (`$(…)`, a
 * backtick pair: commands again, heredocs too, a quote of their own inside a double-quoted one:
 * `git commit -m "$(cat <<'EOF'`); or in an expansion, where `<<` shifts and `;` and `&` separate
 * nothing (`((…))`, `$((…))`, `${…}`, `$[…]`, a subscript `a[…]` in a word).
 */
type Frame = { kind: "'" | '"' | "$'" | "`" | "${" } | { kind: "$(" | "(("; parens: number; heredocs?: Heredoc[] } | { kind: "["; word: boolean };

/** Frames where commands are read: the top, `$(…)` and backticks. */
const commandsIn = (frame: Frame | undefined) => frame === undefined || frame.kind === "$(";

/**
 * A backslash at a line's start (`true<newline>\rm u.ts`, a heredoc body's `\i f`): the grammar
 * reads it as going on with the line before (one command, `true` given `\rm` and `u.ts`), where
 * bash starts a command; with a space before it, as bash does (a line's leading blanks are nothing
 * to bash, and only data in a quote or a heredoc's body, which no reading here depends on).
 */
export function lineStartEscapes(text: string): string {
  return text.includes("\n\\") ? text.replaceAll("\n\\", "\n \\") : text;
}

/** The text with every backslash-newline bash would remove removed, and heredoc bodies after the commands they feed. */
export function joinContinuations(text: string): string {
  if (!text.includes("\\\n") && !text.includes("<<") && !text.includes("((")) return text;
  let out = "";
  let current = "";
  const parts: string[] = [];
  const separators: string[] = [];
  let pending: Heredoc[] = [];
  const frames: Frame[] = [];
  // The end of what was written, kept apart: `out.slice(-64)` flattens the whole of `out` each
  // time (a rope of 50,000 lines made so took 10 s).
  let tail = "";
  const emit = (piece: string) => {
    out += piece;
    tail = piece.length >= 64 ? piece.slice(-64) : (tail + piece).slice(-64);
  };
  const take = (piece: string) => {
    current += piece;
    return piece.length - 1;
  };
  for (let at = 0; at < text.length; at++) {
    const char = text[at] as string;
    const frame = frames[frames.length - 1];
    if (frame?.kind === "'") {
      current += char;
      if (char === "'") frames.pop();
      continue;
    }
    if (char === "\\") {
      if (text[at + 1] === "\n" && frame?.kind !== "$'") {
        at++;
        continue;
      }
      at += take(char + (text[at + 1] ?? ""));
      continue;
    }
    if (frame?.kind === "$'") {
      current += char;
      if (char === "'") frames.pop();
      continue;
    }
    if (frame?.kind === "`") {
      // Bash ends a backtick substitution at the next backtick not escaped, whatever quotes are in it.
      current += char;
      if (char === "`") frames.pop();
      continue;
    }
    // What opens the same way in double quotes and out of them: `$(`, `$((`, `${`, `$[`, a backtick.
    if (char === "$" && text[at + 1] === "(") {
      if (text[at + 2] === "(" && subshellFirst(text, at + 2)) {
        // `$((cd src && rm f) 2>&1)`: a command substitution opening with a subshell, as bash reads it
        // once it cannot read arithmetic there; the grammar reads arithmetic.
        frames.push({ kind: "$(", parens: 0 });
        current += "$( ";
        at += 1;
      } else if (text[at + 2] === "(") {
        frames.push({ kind: "((", parens: 2 });
        at += take("$((");
      } else {
        frames.push({ kind: "$(", parens: 0 });
        at += take("$(");
      }
      continue;
    }
    if (char === "$" && (text[at + 1] === "{" || text[at + 1] === "[")) {
      frames.push(text[at + 1] === "{" ? { kind: "${" } : { kind: "[", word: false });
      at += take(text.slice(at, at + 2));
      continue;
    }
    if (char === "`") {
      frames.push({ kind: "`" });
      current += char;
      continue;
    }
    if (frame?.kind === '"') {
      if (char === '"') frames.pop();
      current += char;
      continue;
    }
    if ((char === "<" || char === ">") && text[at + 1] === "(" && commandsIn(frame)) {
      // A process substitution holds commands as `$(…)` does (`diff <(cat <<EOF) f`).
      frames.push({ kind: "$(", parens: 0 });
      at += take(text.slice(at, at + 2));
      continue;
    }
    if (char === '"' || char === "'") {
      frames.push({ kind: char });
      current += char;
      continue;
    }
    if (char === "$" && text[at + 1] === "'") {
      frames.push({ kind: "$'" });
      at += take("$'");
      continue;
    }
    const commands = commandsIn(frame);
    if (char === "#" && commands && (at === 0 || /[\s;&|()]/.test(text[at - 1] as string))) {
      // A comment runs to the end of its line, backslashes and all.
      const end = text.indexOf("\n", at);
      current += end === -1 ? text.slice(at) : text.slice(at, end);
      at = end === -1 ? text.length : end - 1;
      continue;
    }
    if (/[\s;&|()]/.test(char)) {
      // A word ends, and a subscript left open in it.
      while (frames[frames.length - 1]?.kind === "[" && (frames[frames.length - 1] as { word: boolean }).word) frames.pop();
    }
    if (char === "\n") {
      if (pending.length === 0) {
        emit(`${joined(parts, separators)}${current}\n`);
      } else {
        const { line, next } = withBodies([...parts, current], separators, pending, text, at + 1, CONTINUED.test(tail));
        emit(line);
        pending = [];
        at = next - 1;
      }
      current = "";
      parts.length = 0;
      separators.length = 0;
      continue;
    }
    if (commands && char === "(" && text[at + 1] === "(" && subshellFirst(text, at + 1)) {
      current += "( "; // `((cd src; rm f); ls)`: a subshell in a subshell (see `$((` above)
      continue;
    }
    if (commands && char === "(" && text[at + 1] === "(") {
      frames.push({ kind: "((", parens: 2 });
      at += take("((");
      continue;
    }
    if (frame?.kind === "((" || frame?.kind === "$(") {
      if (char === "(") frame.parens++;
      else if (char === ")") {
        if (frame.kind === "((" ? --frame.parens === 0 : frame.parens-- === 0) {
          frames.pop();
          // `x=$(cat <<EOF); rm f`: bash reads the body after the line, the grammar only inside the `$(…)`.
          for (const heredoc of frame.heredocs ?? []) Object.assign(heredoc, { part: parts.length, at: current.length });
        }
      }
    } else if (frame?.kind === "${" && char === "}") frames.pop();
    else if (frame?.kind === "[" && char === "]") frames.pop();
    if (commands && char === "[" && /(^|[\s;&|(])[A-Za-z_]\w*$/.test(current.slice(-256))) frames.push({ kind: "[", word: true }); // `a[1<<2]=3`
    if (commands && char === "<" && text[at + 1] === "<") {
      if (text[at + 2] === "<") {
        at += take("<<<");
        continue;
      }
      const start = heredocStart(text, at);
      if (start !== undefined) {
        const heredoc: Heredoc = { ...start.heredoc, part: parts.length };
        pending.push(heredoc);
        if (frame?.kind === "$(") (frame.heredocs ??= []).push(heredoc); // (each `$(…)` its own: a line of many stays linear)
        // As the grammar reads it: `<<$'EOF'` as `<<'EOF'` (bash's delimiter is EOF), and a blank
        // where bash ends the word and the grammar does not (`cat <<EOF>out`, `<<E'O'F;`).
        const written = text.slice(at, start.end);
        // A quoted delimiter spelled otherwise than `'EOF'`, `"EOF"` or `\EOF` (`E'O'F`, `'EOF'""`, `$'EOF'`) is written as `'EOF'`.
        const plain = /^<<-?[ \t]*('[^']*'|"[^"]*"|\\?[^'"\\$]*)$/.test(written);
        const spelled = start.heredoc.quoted && !plain && !start.heredoc.delimiter.includes("'") ? `<<${start.heredoc.strip ? "-" : ""}'${start.heredoc.delimiter}'` : written;
        current += spelled + (/[;&|<>]/.test(text[start.end] ?? "") ? " " : "");
        at = start.end - 1;
        continue;
      }
      at += take("<<");
      continue;
    }
    if (frames.every(commandsIn) && (char === ";" || char === "&")) {
      // Split at every command's end on a line, so a heredoc's part holds its own command alone.
      const { operator, separates } = separator(text, at);
      at += operator.length - 1;
      if (!separates) {
        current += operator;
        continue;
      }
      parts.push(current);
      separators.push(operator);
      current = "";
      continue;
    }
    // `cat <<EOF 2>&1|tee f`: after a heredoc's start, the grammar takes a `|` glued to a word for
    // part of it (and the command after it for the body's); bash ends the word there.
    if (char === "|" && pending.length > 0 && frames.every(commandsIn) && !/[\s|>]/.test(text[at - 1] ?? " ")) current += " ";
    current += char;
  }
  if (pending.length === 0) return out + joined(parts, separators) + current;
  return out + withBodies([...parts, current], separators, pending, text, text.length, CONTINUED.test(tail)).line;
}

/** A line's commands as they were written, with no heredoc to place: each with its separator. */
function joined(parts: string[], separators: string[]): string {
  return parts.map((part, index) => part + (separators[index] ?? "")).join("");
}

/**
 * The operator at a `;` or `&`, taken whole, and whether it ends a command there: `;`, `&`, and a
 * `case` item's `;;`, `;&`, `;;&` do; `&&`, `&>` and `>&` do not.
 */
function separator(text: string, at: number): { operator: string; separates: boolean } {
  if (text[at] === ";") {
    if (text.startsWith(";;&", at)) return { operator: ";;&", separates: true };
    if (text[at + 1] === ";" || text[at + 1] === "&") return { operator: text.slice(at, at + 2), separates: true };
    return { operator: ";", separates: true };
  }
  if (text[at + 1] === "&" || text[at + 1] === ">") return { operator: text.slice(at, at + 2), separates: false };
  return { operator: "&", separates: !/[<>|&]/.test(text[at - 1] ?? "") };
}

/** The heredoc a `<<` at `at` starts, and where its delimiter word ends; undefined when no word follows. */
function heredocStart(text: string, at: number): { heredoc: Omit<Heredoc, "part">; end: number } | undefined {
  let end = at + 2;
  const strip = text[end] === "-";
  if (strip) end++;
  while (text[end] === " " || text[end] === "\t") end++;
  let delimiter = "";
  let quoted = false;
  while (end < text.length && !/[\s;&|<>()]/.test(text[end] as string)) {
    const char = text[end] as string;
    if (char === "$" && (text[end + 1] === "'" || text[end + 1] === '"')) {
      end++; // `<<$'EOF'`: the delimiter is EOF, quoted
      continue;
    }
    if (char === "'" || char === '"') {
      const close = text.indexOf(char, end + 1);
      if (close === -1) return undefined;
      delimiter += text.slice(end + 1, close);
      quoted = true;
      end = close + 1;
    } else if (char === "\\") {
      delimiter += text[end + 1] ?? "";
      quoted = true;
      end += 2;
    } else {
      delimiter += char;
      end++;
    }
  }
  if (delimiter === "" && !quoted) return undefined;
  return { heredoc: { delimiter, quoted, strip }, end };
}

/**
 * A line that starts heredocs, as the grammar reads it: each command (part) that starts one on a
 * line of its own, followed by its bodies; one run apart with `&` (whose `cd` ends with it) held in
 * a subshell where it opens and closes nothing, else left with its `&`. `from`: where the bodies start.
 */
function withBodies(parts: string[], separators: string[], heredocs: Heredoc[], text: string, from: number, continued: boolean): { line: string; next: number } {
  let next = from;
  const owned = new Map<number, string>();
  const inside: Array<{ part: number; at: number; text: string }> = [];
  for (const heredoc of heredocs) {
    const body = readBody(text, next, heredoc);
    next = body.next;
    if (heredoc.at === undefined) owned.set(heredoc.part, (owned.get(heredoc.part) ?? "") + body.text);
    else {
      // Those of one `$(…)` one after another, on the lines after its start.
      const before = inside[inside.length - 1];
      if (before?.part === heredoc.part && before.at === heredoc.at) before.text += body.text;
      else inside.push({ part: heredoc.part, at: heredoc.at, text: `\n${body.text}` });
    }
  }
  // Placed in each part in one pass, in the order of their offsets (one slice per body: a part of
  // 10,000 `$(cat <<EOF)` sliced once per body took seconds).
  const byPart = new Map<number, typeof inside>();
  for (const body of inside) {
    const bodies = byPart.get(body.part);
    if (bodies === undefined) byPart.set(body.part, [body]);
    else bodies.push(body);
  }
  for (const [index, bodies] of byPart) {
    const part = parts[index] as string;
    let placed = "";
    let from = 0;
    for (const body of bodies.sort((a, b) => a.at - b.at)) {
      placed += part.slice(from, body.at) + body.text;
      from = body.at;
    }
    parts[index] = placed + part.slice(from);
  }
  let line = "";
  parts.forEach((part, index) => {
    const separator = separators[index];
    const own = owned.get(index) ?? "";
    if (own === "") line += part + (separator ?? "");
    else if (separator === undefined || separator === ";") line += `${part}\n${own}`;
    else if (separator !== "&") line += `${part}\n${own}${separator}`; // `;;`: the case item ends after its bodies
    else if (PLAIN.test(part) && !KEYWORD.test(part) && !(index === 0 && continued)) line += `(${part}\n${own})\n`;
    // The grammar leaves this `&` an error, and the walk reads the part as run here: where the
    // shell is after it (a `cd` in it moves nothing), the walk is told it cannot say.
    else line += `${part} &\n${own}cd "$${APART}"\n`;
  });
  return { line: line.endsWith("\n") ? line : `${line}\n`, next };
}

/** A variable no shell sets: `cd "$…"` to it leaves the walk's directory unknown. */
const APART = "CLAIMS_HOOK_RUN_APART_";

/**
 * Whether the `(` at `open`, the second of a `((` or `$((`, closes with a `)` that no second `)`
 * follows: then bash reads no arithmetic there but a subshell (`$((cd src; rm f) | cat)`). Quotes
 * are skipped; looked at no further than a kilobyte (arithmetic, as the grammar reads it, beyond).
 */
function subshellFirst(text: string, open: number): boolean {
  let depth = 0;
  for (let at = open; at < text.length && at < open + 1024; at++) {
    const char = text[at];
    if (char === "\\") at++;
    else if (char === "'" || char === '"') {
      const close = text.indexOf(char, at + 1);
      if (close === -1) return false;
      at = close;
    } else if (char === "(") depth++;
    else if (char === ")" && --depth === 0) return text[at + 1] !== ")";
  }
  return false;
}

/** Output that ends in a list's operator: the next line's first command is part of that list (`cd src &&` then `cat <<EOF >o &`). */
const CONTINUED = /(&&|\|\|?|\|&)\s*$/;

/** A part that opens and closes nothing, which a subshell can hold. */
const PLAIN = /^[^(){}`]*$/;
const KEYWORD = /(^|[\s;&|])(if|then|else|elif|fi|do|done|for|while|until|case|esac|select|function|in)(?=$|[\s;&|])/;

/** A heredoc's body from `from` to its end line (included), as bash reads it: the rest of the text when it has none. */
function readBody(text: string, from: number, heredoc: Heredoc): { text: string; next: number } {
  let body = "";
  let at = from;
  while (at < text.length) {
    const newline = text.indexOf("\n", at);
    let piece = text.slice(at, newline === -1 ? text.length : newline);
    let next = newline === -1 ? text.length : newline + 1;
    // In an unquoted body, a line ending in an odd number of backslashes goes on with the next
    // (pieces kept, and the count carried: joined again and counted again, 40,000 took 15 s).
    const pieces: string[] = [];
    let trailing = trailingBackslashes(piece);
    while (!heredoc.quoted && next < text.length && trailing % 2 === 1) {
      pieces.push(piece.slice(0, -1));
      const after = text.indexOf("\n", next);
      piece = text.slice(next, after === -1 ? text.length : after);
      const own = trailingBackslashes(piece);
      trailing = own === piece.length ? trailing - 1 + own : own;
      next = after === -1 ? text.length : after + 1;
    }
    pieces.push(piece);
    const line = pieces.join("");
    body += `${line}\n`;
    at = next;
    if ((heredoc.strip ? line.replace(/^\t+/, "") : line) === heredoc.delimiter) return { text: body, next };
  }
  // None: bash reads the rest of the text as the body (and warns). Ended here, so the grammar reads it so too.
  return { text: `${body}${heredoc.delimiter}\n`, next: text.length };
}

function trailingBackslashes(line: string): number {
  let count = 0;
  while (line[line.length - 1 - count] === "\\") count++;
  return count;
}
