// Links a command makes (`ln -s u.ts l && echo x > l`): a write through one writes the file it leads
// to. Each link is noted where it is made (noteLinks); a write after it is judged at both names as it
// is added (add in shell-words.ts); and once the whole command is read, every write is judged
// through every link once more (throughLinksMade), since a script is read after the line that runs
// it (`bash -c 'ln -s u.ts l'; echo x > l`, a function called before the write).
import { basename, dirname, resolve } from "node:path";
import type Parser from "web-tree-sitter";
import { isDirectory } from "../targets/target.js";
import { GLOB_MARK, UNKNOWN_MARK } from "./payload.js";
import { readOptions, type Syntax } from "./shell-options.js";
import { throughLinks, type Walk, wordValue, wordValues } from "./shell-words.js";

type Node = Parser.SyntaxNode;

const CP: Syntax = { short: "abdfHilLnPprRsTuvxS:t:", long: { "target-directory": "t", suffix: "S", link: "l", "symbolic-link": "s", recursive: "r" } };
const LN: Syntax = { short: "bdfinrsvLPS:t:T", long: { "target-directory": "t", suffix: "S", symbolic: "s", relative: "r" } };

/**
 * Each link `ln`, `link`, `cp -l` or `cp -s` makes, with where it leads: in effect from the next
 * command on. A source the text does not fix (`"$(pwd)/u.ts"`) leads to a file in a place unknown,
 * judged by its name (UNKNOWN_MARK); a link whose own place it does not fix is not followed.
 */
export function noteLinks(name: string, args: Array<string | undefined>, words: Node[], here: Walk): void {
  if (here.cwd === undefined) return;
  const reading = readOptions(args, name === "link" ? {} : name === "cp" ? CP : LN, 0, (at) => wordValue(words[at], here));
  const value = (index: number) => args[index] ?? wordValues(words[index] as Node, here)?.[0];
  const operands = reading.operands.map(value);
  const into = reading.has("t") ? reading.value("t") : undefined;
  if (reading.has("t") && into === undefined) return;
  const symbolic = reading.has("s");
  const sources = into !== undefined ? operands : operands.length > 1 ? operands.slice(0, -1) : operands;
  const destination = into ?? (operands.length > 1 ? operands[operands.length - 1] : ".");
  if (destination === undefined || destination.startsWith(UNKNOWN_MARK) || destination.startsWith(GLOB_MARK)) return;
  const cwd = here.cwd;
  const intoDirectory = into !== undefined || (!reading.has("T") && (sources.length > 1 || destination.endsWith("/") || isDirectory(resolve(cwd, destination))));
  for (const source of sources) {
    if (source === undefined) continue;
    const bare = source.replace(UNKNOWN_MARK, "").replace(GLOB_MARK, "");
    const unknown = bare !== source;
    const link = intoDirectory ? resolve(cwd, destination, basename(bare)) : resolve(cwd, destination);
    // A symlink's relative source is read from the link's directory, a hard link's from here.
    const named = unknown ? UNKNOWN_MARK + basename(bare) : symbolic && !reading.has("r") ? resolve(dirname(link), source) : resolve(cwd, source);
    // A link to a link made before leads where that one does.
    const target = here.shared.links?.get(named) ?? named;
    (here.shared.newLinks ??= []).push([link, target]);
    (here.shared.linkings ??= new Map()).set(link, (here.shared.linkings.get(link) ?? 0) + 1);
  }
}

/**
 * Every write of the command, judged once more through every link it makes, wherever in it that
 * link is made; but not a link's own making (`ln -sf u.ts l` writes l, not u.ts), unless the
 * command writes that name some other way too.
 */
export function throughLinksMade(walk: Walk): void {
  const { shared } = walk;
  for (const [link, target] of shared.newLinks?.splice(0) ?? []) (shared.links ??= new Map()).set(link, target);
  for (const written of [...walk.found]) if ((shared.writes?.get(written) ?? 0) > (shared.linkings?.get(written) ?? 0)) throughLinks(walk, written);
}
