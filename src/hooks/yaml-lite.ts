// The part of YAML that task runners' files are written in (Taskfile.yml): block mappings and
// sequences by indentation, flow sequences of scalars (`[a, b]`), plain, single- and double-quoted
// scalars, block scalars (`|`, `>`, with `-`/`+`), comments. Anything else (anchors and aliases,
// tags, flow mappings, multi-line plain or quoted scalars, several documents) is not read:
// readYaml returns undefined, and the caller treats the file as one it cannot read.

export type YamlValue = string | YamlValue[] | { [key: string]: YamlValue };

interface Line {
  indent: number;
  text: string;
  /** Its index in the file, for a block scalar's raw lines. */
  at: number;
}

/** The document's value, or undefined where it uses what this reader does not read. */
export function readYaml(source: string): YamlValue | undefined {
  const raw = source.replace(/^\uFEFF/, "").split(/\r?\n/);
  const lines: Line[] = [];
  for (const [at, line] of raw.entries()) {
    if (/^\s*(#.*)?$/.test(line) || line === "---") continue;
    if (/^(\.\.\.|---\s)/.test(line) || /^\t/.test(line)) return undefined; // several documents, tab indentation
    lines.push({ indent: line.length - line.trimStart().length, text: line.trim(), at });
  }
  try {
    const [value, next] = node(lines, 0, lines[0]?.indent ?? 0, raw);
    return next === lines.length ? value : undefined;
  } catch {
    return undefined;
  }
}

class Unreadable extends Error {}

/** The value starting at lines[start] (indented `indent`), and the index after it. */
function node(lines: Line[], start: number, indent: number, raw: string[]): [YamlValue, number] {
  const first = lines[start];
  if (first === undefined) return ["", start];
  if (first.text === "-" || first.text.startsWith("- ")) return sequence(lines, start, first.indent, raw);
  return mapping(lines, start, indent, raw);
}

function sequence(lines: Line[], start: number, indent: number, raw: string[]): [YamlValue, number] {
  const items: YamlValue[] = [];
  let at = start;
  while (at < lines.length) {
    const line = lines[at] as Line;
    if (line.indent !== indent || !(line.text === "-" || line.text.startsWith("- "))) break;
    const rest = line.text.slice(1).trimStart();
    if (rest === "") {
      const [value, next] = lines[at + 1] !== undefined && (lines[at + 1] as Line).indent > indent ? node(lines, at + 1, (lines[at + 1] as Line).indent, raw) : ["", at + 1];
      items.push(value);
      at = next;
      continue;
    }
    // `- key: value` opens a mapping whose keys line up with `key`.
    if (keyOf(rest) !== undefined) {
      const inner = indent + (line.text.length - rest.length);
      const shifted: Line[] = [{ indent: inner, text: rest, at: line.at }, ...lines.slice(at + 1)];
      const [value, next] = mapping(shifted, 0, inner, raw);
      items.push(value);
      at = at + next;
      continue;
    }
    const [value, next] = inlineOrBlock(rest, lines, at, indent, raw);
    items.push(value);
    at = next;
  }
  return [items, at];
}

function mapping(lines: Line[], start: number, indent: number, raw: string[]): [YamlValue, number] {
  const map: { [key: string]: YamlValue } = {};
  let at = start;
  while (at < lines.length) {
    const line = lines[at] as Line;
    if (line.indent < indent) break;
    if (line.indent > indent) throw new Unreadable();
    const key = keyOf(line.text);
    if (key === undefined) throw new Unreadable();
    const rest = line.text.slice(key.length).replace(/^\s*:/, "").trimStart();
    const name = unquote(key.trim());
    if (rest === "" || rest.startsWith("#")) {
      const next = lines[at + 1];
      // A value on the lines below: indented more, or a sequence at the key's own indentation.
      if (next !== undefined && (next.indent > indent || (next.indent === indent && (next.text === "-" || next.text.startsWith("- "))))) {
        const [value, after] = node(lines, at + 1, next.indent, raw);
        map[name] = value;
        at = after;
      } else {
        map[name] = "";
        at++;
      }
      continue;
    }
    const [value, next] = inlineOrBlock(rest, lines, at, indent, raw);
    map[name] = value;
    at = next;
  }
  return [map, at];
}

/** A value written after `key:` or `- `: a block scalar (the lines below), a flow sequence, or a scalar. */
function inlineOrBlock(text: string, lines: Line[], at: number, indent: number, raw: string[]): [YamlValue, number] {
  const block = /^([|>])([+-]?)\s*(#.*)?$/.exec(text);
  if (block) {
    let next = at + 1;
    while (next < lines.length && (lines[next] as Line).indent > indent) next++;
    const from = (lines[at] as Line).at + 1;
    const to = next < lines.length ? (lines[next] as Line).at : raw.length;
    const body = raw.slice(from, to);
    const margin = Math.min(...body.filter((line) => line.trim() !== "").map((line) => line.length - line.trimStart().length));
    const kept = body.map((line) => line.slice(Number.isFinite(margin) ? margin : 0));
    while (kept.length > 0 && (kept.at(-1) as string).trim() === "") kept.pop();
    const joined = block[1] === "|" ? kept.join("\n") : kept.join(" ").replace(/\s+\n/g, "\n");
    return [block[2] === "-" ? joined : `${joined}\n`, next];
  }
  return [scalarOrFlow(text), at + 1];
}

function scalarOrFlow(text: string): YamlValue {
  if (text.startsWith("[")) {
    const inner = /^\[(.*)\]\s*(#.*)?$/.exec(text);
    if (!inner) throw new Unreadable();
    const items = (inner[1] as string).match(/"(?:\\.|[^"\\])*"|'(?:''|[^'])*'|[^,]+/g) ?? [];
    return items.map((item) => item.trim()).filter((item) => item !== "").map((item) => scalar(item));
  }
  if (/^[{&*!]/.test(text)) throw new Unreadable(); // flow mappings, anchors, aliases, tags
  return scalar(text);
}

function scalar(text: string): string {
  if (text.startsWith('"')) {
    const quoted = /^"((?:\\.|[^"\\])*)"\s*(#.*)?$/.exec(text);
    if (!quoted) throw new Unreadable();
    return JSON.parse(`"${(quoted[1] as string).replace(/\\([^"\\/bfnrtu])/g, "$1")}"`) as string;
  }
  if (text.startsWith("'")) {
    const quoted = /^'((?:''|[^'])*)'\s*(#.*)?$/.exec(text);
    if (!quoted) throw new Unreadable();
    return (quoted[1] as string).replace(/''/g, "'");
  }
  return text.replace(/\s+#.*$/, "").trim();
}

/** The key of a `key: value` line (quoted keys too), or undefined for a line that is no such pair. */
function keyOf(text: string): string | undefined {
  const match = /^("(?:\\.|[^"\\])*"|'(?:''|[^'])*'|[^\s"'#:][^:#]*?)\s*:(\s|$)/.exec(text);
  return match ? (match[1] as string) : undefined;
}

function unquote(key: string): string {
  return key.startsWith('"') || key.startsWith("'") ? scalar(key) : key;
}
