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
// or `&` after a heredoc's redirections and swallows what follows. Such a line is split at those
// separators, and each body placed after the command it feeds: the same commands, in the same order.

interface Heredoc {
  delimiter: string;
  /** Any quote in the delimiter: the body is taken as it is, with no backslash-newline removed. */
  quoted: boolean;
  /** `<<-`: leading tabs do not count when the end line is looked for. */
  strip: boolean;
  /** The part of its line (split at `;` and `&`) it belongs to. */
  part: number;
}

/** The text with every backslash-newline bash would remove removed, and heredoc bodies after the commands they feed. */
export function joinContinuations(text: string): string {
  if (!text.includes("\\\n") && !text.includes("<<")) return text;
  let out = "";
  let current = "";
  const parts: string[] = [];
  const separators: string[] = [];
  let pending: Heredoc[] = [];
  let quote: "'" | '"' | undefined;
  let arithmetic = 0; // open parentheses of a `((…))`: `<<` there shifts, `&` and `;` separate nothing
  let braces = 0; // open `${…}`: `${x//;/}`
  let subscripts = 0; // open `a[…]` in a word: `arr[1<<2]=3` shifts
  let brackets = 0; // open `$[…]`, arithmetic
  for (let at = 0; at < text.length; at++) {
    const char = text[at] as string;
    if (quote === "'") {
      current += char;
      if (char === "'") quote = undefined;
      continue;
    }
    if (char === "\\") {
      if (text[at + 1] === "\n") {
        at++;
        continue;
      }
      current += char + (text[at + 1] ?? "");
      at++;
      continue;
    }
    if (quote === '"') {
      current += char;
      if (char === '"') quote = undefined;
      continue;
    }
    if (char === '"' || char === "'") {
      quote = char;
      current += char;
      continue;
    }
    if (char === "#" && (at === 0 || /[\s;&|()]/.test(text[at - 1] as string))) {
      // A comment runs to the end of its line, backslashes and all.
      const end = text.indexOf("\n", at);
      current += end === -1 ? text.slice(at) : text.slice(at, end);
      at = end === -1 ? text.length : end - 1;
      continue;
    }
    if (char === "\n") {
      subscripts = 0;
      if (pending.length === 0) {
        out += current + "\n";
        current = "";
        continue;
      }
      const { line, next } = withBodies([...parts, current], separators, pending, text, at + 1);
      out += line;
      current = "";
      parts.length = 0;
      separators.length = 0;
      pending = [];
      at = next - 1;
      continue;
    }
    if (char === "(") {
      if (arithmetic > 0) arithmetic++;
      else if (text[at + 1] === "(") {
        arithmetic = 2;
        current += "((";
        at++;
        continue;
      }
    } else if (char === ")" && arithmetic > 0) arithmetic--;
    else if (char === "$" && text[at + 1] === "{") {
      braces++;
      current += "${";
      at++;
      continue;
    } else if (char === "}" && braces > 0) braces--;
    else if (char === "$" && text[at + 1] === "[") {
      brackets++;
      current += "$[";
      at++;
      continue;
    } else if (char === "[" && /\w/.test(text[at - 1] ?? "")) subscripts++;
    else if (char === "]" && subscripts + brackets > 0) {
      if (subscripts > 0) subscripts--;
      else brackets--;
    } else if (char === " " || char === "\t") subscripts = 0; // a word ends, and a subscript in it
    else if (char === "<" && text[at + 1] === "<" && arithmetic + braces + subscripts + brackets === 0) {
      if (text[at + 2] === "<") {
        current += "<<<";
        at += 2;
        continue;
      }
      const start = heredocStart(text, at);
      if (start !== undefined) {
        pending.push({ ...start.heredoc, part: parts.length });
        current += text.slice(at, start.end);
        at = start.end - 1;
        continue;
      }
      current += "<<";
      at++;
      continue;
    } else if ((char === ";" || char === "&") && pending.length > 0 && arithmetic + braces + subscripts + brackets === 0) {
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
    current += char;
  }
  if (pending.length === 0) return out + current;
  return out + withBodies([...parts, current], separators, pending, text, text.length).line;
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
 * A line that starts heredocs, as the grammar reads it: each part ending in a `;` or `&` after a
 * heredoc's start on its own line, followed by its bodies; `&` (a command run apart, whose `cd`
 * ends with it) kept as a subshell where the part is a plain command. `from`: where the bodies start.
 */
function withBodies(parts: string[], separators: string[], heredocs: Heredoc[], text: string, from: number): { line: string; next: number } {
  let next = from;
  const bodies = heredocs.map((heredoc) => {
    const body = readBody(text, next, heredoc);
    next = body.next;
    return { part: heredoc.part, text: body.text };
  });
  let line = "";
  parts.forEach((part, index) => {
    const separator = separators[index];
    const own = bodies.filter((body) => body.part === index).map((body) => body.text).join("");
    if (own === "") line += part + (separator ?? "");
    else if (separator === undefined || separator === ";") line += `${part}\n${own}`;
    else if (separator !== "&") line += `${part}\n${own}${separator}`; // `;;`: the case item ends after its bodies
    else if (PLAIN.test(part) && !KEYWORD.test(part)) line += `(${part}\n${own})\n`;
    else line += `${part} &\n${own}`;
  });
  return { line: line.endsWith("\n") ? line : `${line}\n`, next };
}

/** A part that opens and closes nothing, which a subshell can hold. */
const PLAIN = /^[^(){}`]*$/;
const KEYWORD = /(^|[\s;&|])(if|then|else|elif|fi|do|done|for|while|until|case|esac|select|function|in)(?=$|[\s;&|])/;

/** A heredoc's body from `from` to its end line (included), as bash reads it: the rest of the text when it has none. */
function readBody(text: string, from: number, heredoc: Heredoc): { text: string; next: number } {
  let body = "";
  let at = from;
  while (at < text.length) {
    const newline = text.indexOf("\n", at);
    let line = text.slice(at, newline === -1 ? text.length : newline);
    let next = newline === -1 ? text.length : newline + 1;
    // In an unquoted body, a line ending in an odd number of backslashes goes on with the next.
    while (!heredoc.quoted && next < text.length && trailingBackslashes(line) % 2 === 1) {
      const after = text.indexOf("\n", next);
      line = line.slice(0, -1) + text.slice(next, after === -1 ? text.length : after);
      next = after === -1 ? text.length : after + 1;
    }
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
