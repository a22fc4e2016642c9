// Bash removes a backslash-newline before it splits words, anywhere but in single quotes and a
// comment: `r\<newline>m u.ts` is `rm u.ts`, `echo x > u\<newline>.ts` writes u.ts. The grammar
// keeps one between words, not inside a word, so the text is joined first.

/** The text with every backslash-newline bash would remove removed. */
export function joinContinuations(text: string): string {
  if (!text.includes("\\\n")) return text;
  let out = "";
  let quote: "'" | '"' | undefined;
  for (let at = 0; at < text.length; at++) {
    const char = text[at] as string;
    if (quote === "'") {
      out += char;
      if (char === "'") quote = undefined;
      continue;
    }
    if (char === "\\") {
      if (text[at + 1] === "\n") {
        at++;
        continue;
      }
      out += char + (text[at + 1] ?? "");
      at++;
      continue;
    }
    if (char === '"') quote = quote === '"' ? undefined : '"';
    else if (char === "'" && quote === undefined) quote = "'";
    else if (char === "#" && quote === undefined && (at === 0 || /[\s;&|()]/.test(text[at - 1] as string))) {
      // A comment runs to the end of its line, backslashes and all.
      const end = text.indexOf("\n", at);
      out += end === -1 ? text.slice(at) : text.slice(at, end);
      at = end === -1 ? text.length : end - 1;
      continue;
    }
    out += char;
  }
  return out;
}

/**
 * `cat > f.py <<'EOF'; python3 f.py` (the body on the lines after): the grammar cannot read a `;`
 * or `&` right after a heredoc's delimiter, and leaves what follows loose words. Read as `&&`,
 * which runs the same commands for what they write.
 */
export function heredocSeparators(text: string): string {
  if (!text.includes("<<")) return text;
  return text.replace(/((?<!<)<<-?[ \t]*(['"]?)[A-Za-z_][\w-]*\2)[ \t]*(?:;|&(?!&))/g, "$1 &&");
}
