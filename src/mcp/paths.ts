// How the MCP tools read the paths they are given (docs/MCP.md, "Tools"): as the CLI reads its
// targets, but for a bare word (no `/`, `#` or glob character, no leading `.` or `~`) that names
// nothing in the server's working directory. The CLI reads such a word as a name (and refuses to
// take one that reads like a file or a directory, README "Targets"); these tools take paths, so it
// is the path it will be there (`./deploy`, and `./build/` for a word that reads like a directory:
// pathItWillBe), unless a claim or a queued interest in the server's claims directory carries the
// word as a name (taken as `name:cfg`, or by the CLI): then it is that name, as `claims check`
// reads such a word, so an agent queues behind, checks and releases the claim the answers name
// `cfg`. `name:cfg` is always the name.
import { BadInputError } from "../os/errors.js";
import { openContext, type CommonOptions, type Context, type Holding } from "../protocol/context.js";
import { claimedAsName } from "../protocol/queue.js";
import { NAME_PREFIX, parseTarget, pathItWillBe } from "../targets/target.js";

/** A text that is no bare word, whatever the directory holds: a path, glob or symbol by its characters, or prefixed. */
const NOT_BARE = /[/#*?[\]{}]|^[.~]|^(?:name|glob):/;

/**
 * The server's context, opened once and only when a bare word is given: a path, the common case,
 * costs the tool nothing beyond the command it runs.
 */
export function lazyContext(options: CommonOptions): () => Context {
  let context: Context | undefined;
  return () => (context ??= openContext(options));
}

/** The word, when `input` is a bare word naming nothing in the server's directory; undefined for anything else (bad input included: the command says why). */
function bareWord(input: string, contextOf: () => Context): string | undefined {
  if (NOT_BARE.test(input)) return undefined;
  try {
    const { settings } = contextOf();
    const target = parseTarget(input, { cwd: settings.cwd, home: settings.home });
    return target.kind === "name" && target.named !== true ? target.canonical : undefined;
  } catch {
    return undefined;
  }
}


/**
 * A path for `claim`: a bare word naming nothing is the path it will be with `creating: true` (the
 * caller says it is about to create it, as for a symbol); without it, the name a claim or queued
 * interest carries, else bad input: a caller that meant a name (which a bare word was before) or
 * misspelt a file is told, not given a path. A word that is both a name a claim carries and a path
 * another holds (`heldByOther`) is bad input too: taken as the name, an agent that meant the file
 * (its own old lock, or a stale one, naming the word) was granted it while the file's holder wrote.
 */
export function pathToClaim(input: string, creating: boolean, contextOf: () => Context, heldByOther?: (path: string) => Holding | undefined): string {
  const word = bareWord(input, contextOf);
  if (word === undefined) return input;
  const { path } = pathItWillBe(word);
  if (creating) return path;
  const context = contextOf();
  if (claimedAsName(word, context)) {
    const holding = heldByOther?.(path);
    if (holding === undefined) return `${NAME_PREFIX}${word}`;
    throw bothReadings(input, word, path, holding, context, "to claim the name, or pass creating: true to claim the path");
  }
  throw new BadInputError(`${input} names nothing in ${context.settings.cwd}: pass creating: true to claim the path it will be there (${path}), or write ${NAME_PREFIX}${word} to claim a name.`);
}

/**
 * What `check` judges for a path: a bare word naming nothing is the path it will be, and also the
 * name when a claim or queued interest carries the word as one. Either may be what the caller is
 * about to write, as `claims check` reads such a word: judged as the name alone, a claim of the
 * file `./gen.txt` was passed over whenever any claim (a stale one, the caller's own) named `gen.txt`.
 */
export function pathsToCheck(input: string, contextOf: () => Context): string[] {
  const word = bareWord(input, contextOf);
  if (word === undefined) return [input];
  const { path } = pathItWillBe(word);
  return claimedAsName(word, contextOf()) ? [`${NAME_PREFIX}${word}`, path] : [path];
}

/**
 * A path for `release` and `handover`: a bare word naming nothing is the name a claim or queued
 * interest carries, else the path it will be. For a handover that may be granted (no `to`), a word
 * that is also a path another holds (`heldByOther`) is bad input, as for `claim`.
 */
export function pathToJudge(input: string, contextOf: () => Context, heldByOther?: (path: string) => Holding | undefined): string {
  const word = bareWord(input, contextOf);
  if (word === undefined) return input;
  const { path } = pathItWillBe(word);
  if (!claimedAsName(word, contextOf())) return path;
  const holding = heldByOther?.(path);
  if (holding !== undefined) throw bothReadings(input, word, path, holding, contextOf(), `to queue for the name, or ${path} for the path`);
  return `${NAME_PREFIX}${word}`;
}

/**
 * A path for a handover that queues (no `to`): as `pathToJudge`, but a bare word naming nothing that
 * nobody holds as a path either is bad input without `creating`, as for `claim`: a handover of a free
 * target is granted at once, and a misspelt file (`pakage.json`) was taken, silently.
 */
export function pathToQueue(input: string, creating: boolean, contextOf: () => Context, heldByOther: (path: string) => Holding | undefined): string {
  const word = bareWord(input, contextOf);
  if (word === undefined) return input;
  const { path } = pathItWillBe(word);
  if (creating) return path;
  const judged = pathToJudge(input, contextOf, heldByOther);
  if (judged !== path || heldByOther(path) !== undefined) return judged;
  throw new BadInputError(`${input} names nothing in ${contextOf().settings.cwd}, and nobody holds the path it will be (${path}): pass creating: true to queue for that path (taken at once while it is free), or write ${NAME_PREFIX}${word} for a name.`);
}

/** A bare word a claim carries as a name, whose path another holds: which one is meant is the caller's to say. */
function bothReadings(input: string, word: string, path: string, holding: Holding, context: Context, choice: string): BadInputError {
  return new BadInputError(`${input} is both a name a claim carries and the path it will be in ${context.settings.cwd} (${path}), which ${holding.holder} holds${holding.purpose === "" ? "" : ` (${JSON.stringify(holding.purpose)})`}: write ${NAME_PREFIX}${word} ${choice}.`);
}
