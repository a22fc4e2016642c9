// The part of TOML that task runners' files are written in (mise.toml): tables (`[a.b]`, quoted
// keys, `[[a]]`), dotted keys, basic and literal strings (one line or several), arrays (across lines,
// with comments and a trailing comma), inline tables, comments. Numbers, booleans and dates are kept
// as their text. Anything it cannot read (a key defined twice in a way it does not merge, a broken
// string) makes readToml return undefined, and the caller treats the file as one it cannot read.

export type TomlValue = string | TomlValue[] | TomlTable;
export interface TomlTable {
  [key: string]: TomlValue;
}

class Unreadable extends Error {}

/** A table without a prototype: a key named `__proto__` or `constructor` is a key like any other. */
function table(): TomlTable {
  return Object.create(null) as TomlTable;
}

/** The document's table, or undefined where it uses what this reader does not read. */
export function readToml(source: string): TomlTable | undefined {
  try {
    return new Reader(source.replace(/^\uFEFF/, "")).document();
  } catch (error) {
    // Or what the reader met that is not TOML it reads (a RangeError of the stack, say): unread.
    if (error instanceof Unreadable || error instanceof RangeError) return undefined;
    throw error;
  }
}

class Reader {
  private at = 0;
  constructor(private readonly text: string) {}

  /** Arrays and inline tables within one another: deeper is not read (a stack a file could exhaust). */
  private depth = 0;

  document(): TomlTable {
    const root = table();
    let current = root;
    for (;;) {
      this.blank(true);
      if (this.at >= this.text.length) return root;
      if (this.text.startsWith("[[", this.at)) {
        this.at += 2;
        const path = this.keyPath("]");
        this.expect("]]");
        const list = this.descend(root, path.slice(0, -1));
        const last = path[path.length - 1] as string;
        const array = (list[last] ??= []);
        if (!Array.isArray(array)) throw new Unreadable();
        current = table();
        array.push(current);
      } else if (this.text[this.at] === "[") {
        this.at += 1;
        current = this.descend(root, this.keyPath("]"));
        this.expect("]");
      } else {
        this.pair(current);
      }
      this.lineEnd();
    }
  }

  /** `key = value` into table (a dotted key into its sub-tables). */
  private pair(table: TomlTable): void {
    const path = this.keyPath("=");
    this.expect("=");
    this.blank(false);
    const value = this.value();
    const into = this.descend(table, path.slice(0, -1));
    const last = path[path.length - 1] as string;
    if (last in into) throw new Unreadable();
    into[last] = value;
  }

  /** The table at path under table, made where missing. */
  private descend(from: TomlTable, path: string[]): TomlTable {
    let at = from;
    for (const key of path) {
      let next = at[key] ?? (at[key] = table());
      if (Array.isArray(next)) next = next[next.length - 1] as TomlValue;
      if (typeof next !== "object" || Array.isArray(next)) throw new Unreadable();
      at = next;
    }
    return at;
  }

  /** A dotted key (bare or quoted parts) up to `stop`. */
  private keyPath(stop: string): string[] {
    const parts: string[] = [];
    for (;;) {
      this.blank(false);
      const char = this.text[this.at];
      if (char === '"' || char === "'") parts.push(this.string());
      else {
        const bare = /^[A-Za-z0-9_-]+/.exec(this.text.slice(this.at, this.at + 256));
        if (!bare) throw new Unreadable();
        parts.push(bare[0]);
        this.at += bare[0].length;
      }
      this.blank(false);
      if (this.text[this.at] === ".") {
        this.at += 1;
        continue;
      }
      if (!this.text.startsWith(stop, this.at)) throw new Unreadable();
      return parts;
    }
  }

  private value(): TomlValue {
    const char = this.text[this.at];
    if ((char === "[" || char === "{") && this.depth >= 64) throw new Unreadable();
    if (char === '"' || char === "'") return this.string();
    if (char === "[") return this.array();
    if (char === "{") return this.inlineTable();
    // A number, boolean or date: its text, to the end of the value.
    const plain = /^[^\s,\]}#]+/.exec(this.text.slice(this.at, this.at + 256));
    if (!plain) throw new Unreadable();
    this.at += plain[0].length;
    return plain[0];
  }

  private array(): TomlValue[] {
    this.at += 1;
    this.depth += 1;
    const items: TomlValue[] = [];
    for (;;) {
      this.blank(true);
      if (this.text[this.at] === "]") {
        this.at += 1;
        this.depth -= 1;
        return items;
      }
      items.push(this.value());
      this.blank(true);
      if (this.text[this.at] === ",") this.at += 1;
      else if (this.text[this.at] !== "]") throw new Unreadable();
    }
  }

  private inlineTable(): TomlTable {
    this.at += 1;
    this.depth += 1;
    const inline = table();
    this.blank(false);
    if (this.text[this.at] === "}") {
      this.at += 1;
      this.depth -= 1;
      return inline;
    }
    for (;;) {
      this.pair(inline);
      this.blank(false);
      const char = this.text[this.at];
      this.at += 1;
      if (char === "}") {
        this.depth -= 1;
        return inline;
      }
      if (char !== ",") throw new Unreadable();
    }
  }

  private string(): string {
    const quote = this.text[this.at] as string;
    const multi = this.text.startsWith(quote.repeat(3), this.at);
    const delimiter = multi ? quote.repeat(3) : quote;
    this.at += delimiter.length;
    if (multi && this.text[this.at] === "\n") this.at += 1; // a newline right after the opening is trimmed
    else if (multi && this.text.startsWith("\r\n", this.at)) this.at += 2;
    let out = "";
    for (;;) {
      if (this.at >= this.text.length) throw new Unreadable();
      if (this.text.startsWith(delimiter, this.at)) {
        // Up to two quotes more close a multi-line string as part of its text (`""""a"""""`).
        let extra = 0;
        while (multi && extra < 2 && this.text[this.at + delimiter.length + extra] === quote) extra += 1;
        out += quote.repeat(extra);
        this.at += delimiter.length + extra;
        return out;
      }
      const char = this.text[this.at] as string;
      if (!multi && char === "\n") throw new Unreadable();
      if (char === "\\" && quote === '"') {
        const next = this.text[this.at + 1] ?? "";
        const simple: Record<string, string> = { b: "\b", t: "\t", n: "\n", f: "\f", r: "\r", '"': '"', "\\": "\\", e: "\u001b" };
        if (Object.hasOwn(simple, next)) {
          out += simple[next];
          this.at += 2;
        } else if (next === "u" || next === "U") {
          const digits = next === "u" ? 4 : 8;
          const hex = this.text.slice(this.at + 2, this.at + 2 + digits);
          const code = parseInt(hex, 16);
          if (!new RegExp(`^[0-9A-Fa-f]{${digits}}$`).test(hex) || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) throw new Unreadable();
          out += String.fromCodePoint(code);
          this.at += 2 + digits;
        } else if (multi && /^[ \t]*\r?\n/.test(this.text.slice(this.at + 1, this.at + 64))) {
          // A line-ending backslash: the newline and the whitespace after it are dropped.
          this.at += 1;
          while (/\s/.test(this.text[this.at] ?? "")) this.at += 1;
        } else throw new Unreadable();
        continue;
      }
      out += char;
      this.at += 1;
    }
  }

  /** Spaces and tabs, and with newlines also line ends and comments. */
  private blank(newlines: boolean): void {
    for (;;) {
      const char = this.text[this.at];
      if (char === " " || char === "\t") this.at += 1;
      else if (newlines && (char === "\n" || char === "\r")) this.at += 1;
      else if (newlines && char === "#") while (this.at < this.text.length && this.text[this.at] !== "\n") this.at += 1;
      else return;
    }
  }

  /** After a pair or header: a comment, then the end of the line or file. */
  private lineEnd(): void {
    this.blank(false);
    if (this.text[this.at] === "#") while (this.at < this.text.length && this.text[this.at] !== "\n") this.at += 1;
    if (this.text[this.at] === "\r") this.at += 1;
    if (this.at < this.text.length && this.text[this.at] !== "\n") throw new Unreadable();
  }

  private expect(token: string): void {
    if (!this.text.startsWith(token, this.at)) throw new Unreadable();
    this.at += token.length;
  }
}
