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
import { openContext, type CommonOptions, type Context } from "../protocol/context.js";
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
 * misspelt a file is told, not given a path.
 */
export function pathToClaim(input: string, creating: boolean, contextOf: () => Context): string {
  const word = bareWord(input, contextOf);
  if (word === undefined) return input;
  const { path } = pathItWillBe(word);
  if (creating) return path;
  const context = contextOf();
  if (claimedAsName(word, context)) return `${NAME_PREFIX}${word}`;
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

/** A path for `release` and `handover`: a bare word naming nothing is the name a claim or queued interest carries, else the path it will be. */
export function pathToJudge(input: string, contextOf: () => Context): string {
  const word = bareWord(input, contextOf);
  if (word === undefined) return input;
  return claimedAsName(word, contextOf()) ? `${NAME_PREFIX}${word}` : pathItWillBe(word).path;
}
