// Brace expansion, as bash does it before anything else: a word's template (shell-words.ts) marks
// its unquoted `{`, `,` and `}` (OPEN, COMMA, CLOSE), and braceExpansion makes the words it
// becomes (`{a,b}.ts`, `x{,.bak}`, `{a..c}`), counted first so that a word of millions is judged,
// not made.

/** An unquoted `{`, `,` and `}` in a word's template: what brace expansion reads (braceExpansion). */
export const OPEN = "\u0011";
export const COMMA = "\u0012";
export const CLOSE = "\u0013";
const BRACE_MARKS = /[\u0011-\u0013]/g;
const BRACE_TEXT: Record<string, string> = { [OPEN]: "{", [COMMA]: ",", [CLOSE]: "}" };

/**
 * A word's brace expansion, as bash does it before anything else (`{a,b}.ts` is a.ts and b.ts,
 * `x{,.bak}` x and x.bak, `{a..c}` a, b and c): the template's marked braces with a comma between
 * them, or a sequence; any other brace is text (`{}`, `{x}`). Past BRACE_WORDS words (`{a,b}`
 * twenty times over is a million) the braces become `hole`, the caller's mark for a part the text does not fix, judged as
 * such, rather than a list cut short that could leave out the word that matters.
 */
export function braceExpansion(template: string, hole: string): string[] {
  if (!template.includes(OPEN)) return [restore(template)];
  if (braceCount(template) > BRACE_WORDS) {
    const first = template.indexOf(OPEN);
    const last = template.lastIndexOf(CLOSE);
    return [restore(last > first ? template.slice(0, first) + hole + template.slice(last + 1) : template)];
  }
  return expand(template);
}

const BRACE_WORDS = 256;

/** The template's marks as the braces they were. */
export const restore = (text: string) => text.replace(BRACE_MARKS, (mark) => BRACE_TEXT[mark] as string);

/** The first group of the template that expands: where it opens and closes, and its alternatives. */
function firstGroup(template: string): { open: number; close: number; alternatives: string[] } | undefined {
  for (let open = template.indexOf(OPEN); open !== -1; open = template.indexOf(OPEN, open + 1)) {
    let depth = 0;
    const commas: number[] = [];
    let close = -1;
    for (let at = open; at < template.length && close === -1; at++) {
      const char = template[at];
      if (char === OPEN) depth++;
      else if (char === CLOSE && --depth === 0) close = at;
      else if (char === COMMA && depth === 1) commas.push(at);
    }
    if (close === -1) return undefined; // no group closes: the rest is text
    if (commas.length === 0) {
      const sequence = sequenceOf(template.slice(open + 1, close));
      if (sequence !== undefined) return { open, close, alternatives: sequence };
      continue; // `{x}`: text, but a group inside may expand
    }
    const bounds = [open, ...commas, close];
    return { open, close, alternatives: bounds.slice(0, -1).map((from, index) => template.slice(from + 1, bounds[index + 1])) };
  }
  return undefined;
}

/** `1..5`, `10..0..2`, `a..e`: bash's sequence expressions (BRACE_WORDS + 1 at most: enough to know it is too many). */
function sequenceOf(inner: string): string[] | undefined {
  const numbers = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(inner);
  const letters = /^([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?$/.exec(inner);
  const match = numbers ?? letters;
  if (!match) return undefined;
  const from = numbers ? Number(match[1]) : (match[1] as string).charCodeAt(0);
  const to = numbers ? Number(match[2]) : (match[2] as string).charCodeAt(0);
  const step = Math.abs(Number(match[3] ?? 1)) || 1;
  // `{01..03}` is 01 02 03: a bound written with a leading zero pads every number to the wider bound.
  const padded = numbers !== null && [match[1], match[2]].some((bound) => /^-?0\d/.test(bound as string));
  const width = padded ? Math.max((match[1] as string).length, (match[2] as string).length) : 0;
  const number = (at: number) => (at < 0 ? `-${String(-at).padStart(width - 1, "0")}` : String(at).padStart(width, "0"));
  const words: string[] = [];
  for (let at = from; (from <= to ? at <= to : at >= to) && words.length <= BRACE_WORDS; at += from <= to ? step : -step) words.push(numbers ? number(at) : String.fromCharCode(at));
  return words;
}

/** How many words the template expands to, counted without making them (at most BRACE_WORDS + 1). */
function braceCount(template: string): number {
  const group = firstGroup(template);
  if (group === undefined) return 1;
  const each = group.alternatives.reduce((sum, alternative) => Math.min(BRACE_WORDS + 1, sum + braceCount(alternative)), 0);
  return Math.min(BRACE_WORDS + 1, each * braceCount(template.slice(group.close + 1)));
}

function expand(template: string): string[] {
  const group = firstGroup(template);
  if (group === undefined) return [restore(template)];
  const before = template.slice(0, group.open);
  const after = template.slice(group.close + 1);
  return group.alternatives.flatMap((alternative) => expand(before + alternative + after));
}

/** A sequence expression the parser reads as one node (`{1..3}`), marked as the group it expands to. */
export function braceSequence(text: string): string | undefined {
  const words = sequenceOf(text.slice(1, -1));
  if (words === undefined || words.length > BRACE_WORDS) return undefined;
  // (One word, `{1..1}`: that word, not a group of one, which bash would keep as written.)
  return words.length === 1 ? (words[0] as string) : `${OPEN}${words.join(COMMA)}${CLOSE}`;
}
