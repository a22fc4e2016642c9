// The refusal sentence, in one place: the CLI, the agent hooks and the MCP tools all name the
// holder, the purpose, the heartbeat's age and how the claim in the way stands to the target asked
// for in these words (error strings are a tested contract).
import { claimCovers, shapeOf } from "../targets/overlap.js";
import { formatAge } from "../os/time.js";
import { printable, quotedJson } from "../os/printable.js";
import type { Holding } from "./context.js";

/** A purpose as it is quoted in messages (JSON escapes its C0 control characters; C1, invisible and direction-changing ones are shown escaped too). */
export function quoted(purpose: string): string {
  return purpose === "" ? "(no purpose given)" : quotedJson(purpose);
}

/** A purpose after who holds or wants something: `for "…"`, or `with no purpose given` (never `for (no purpose given)`). */
export function forPurpose(purpose: string): string {
  return purpose === "" ? "with no purpose given" : `for ${quoted(purpose)}`;
}

function heartbeat(holding: Holding): string {
  return `heartbeat ${formatAge(holding.heartbeat_age_seconds * 1000)}${holding.heartbeat_age_seconds >= 0 ? " ago" : ""}`;
}

/** The refusal sentence: holder, purpose, heartbeat age. `past`: of a claim taken over, which counted as held until it went stale. */
export function describeHolding(holding: Holding, past = false): string {
  if (holding.unreadable) {
    const file = holding.file === undefined ? "" : ` ${printable(holding.file)}`;
    if (past) return `its claim file${file} could not be read (${holding.unreadable}), and was older than the TTL (modified ${formatAge(holding.heartbeat_age_seconds * 1000)} ago)`;
    // Unreadable only by its permissions (another user's, perhaps with a longer TTL): held for the longest TTL a claim may carry.
    const until = holding.ttl === undefined ? "the TTL" : `${formatAge(holding.ttl * 1000)}, the longest TTL a claim may carry (its own cannot be read; a sweep by its owner, who can, removes it once stale)`;
    return `its claim file${file} cannot be read (${holding.unreadable}); it counts as held until it is older than ${until} (modified ${formatAge(holding.heartbeat_age_seconds * 1000)} ago)`;
  }
  if (holding.queued) {
    const on = holding.held_target ? ` (for ${printable(holding.held_target)})` : "";
    return `${printable(holding.holder)} is queued ahead of you${on} ${forPurpose(holding.purpose)}: the queue goes first`;
  }
  const claim = holding.held_target ? `${whereHeld(holding.target, holding.held_target, holding.shared === true)} ` : holding.shared ? "shared and " : "";
  const overlap = holding.overlap ? `; ${holding.overlap}` : "";
  return `${claim}held by ${printable(holding.holder)} ${forPurpose(holding.purpose)} (${heartbeat(holding)})${overlap}`;
}

/**
 * How the claim in the way stands to the target asked for: above it (`D/` for `D/a.js`), inside
 * it (`D/a.js` when `D/` was asked for, a symbol of the file), or beside it (two globs).
 */
function whereHeld(target: string, heldTarget: string, shared: boolean): string {
  const [asked, held] = [shapeOf(target), shapeOf(heldTarget)];
  const claim = `${shared ? "shared " : ""}claim on ${printable(heldTarget)}`;
  if (claimCovers(held, asked)) return `covered by the ${claim},`;
  if (claimCovers(asked, held)) return `the ${claim} inside it is`;
  return `overlaps the ${claim},`;
}

/**
 * Why a write in a place the hook cannot know (`cd "$dir" && rm a.ts`, `> "$d/a.ts"`) was refused
 * by claims it may not mean: its relative paths were checked against every claim they could name,
 * and a path the hook can follow is judged as that file alone. "." is a write the text does not
 * name at all. `typed`: the programs the command starts that take commands typed at a terminal
 * (Codex may give them one and type into it later), which are why, when there are any. `elsewhere`:
 * text a tool types into a process already running that is no shell line (a REPL's), the reason first.
 */
export function describeUnknownPlace(written: string[], typed: string[] = [], elsewhere: string[] = []): string {
  // "." stands for writes the text does not name at all (a shell reading its program from a pipe,
  // curl -K): src/hooks/shell.ts.
  const named = written.filter((path) => path !== ".");
  const sentences: string[] = [];
  if (named.length > 0) {
    const paths = named.map((path) => quotedJson(path)).join(", ");
    const [these, it] = named.length === 1 ? [`the relative path ${paths}`, "it"] : [`the relative paths ${paths}`, "each"];
    sentences.push(
      `The command writes ${these} after a cd (or pushd, popd) whose directory cannot be known from the command's text, or under a directory a variable names ("$d/${printable(named[0] as string)}"), so ${it} was checked against every claim it could mean (any file of that name, and any directory or glob claim in or above the session's directory). ` +
        `If none of these is the file meant, run it again with a path that can be followed (an absolute path, or after a cd to a literal directory): that file alone is judged.`,
    );
  }
  if (named.length < written.length && elsewhere.length > 0) {
    const text = (elsewhere[0] as string).trim().split("\n")[0] as string;
    sentences.push(
      `The tool types ${quotedJson(text.length > 80 ? `${text.slice(0, 80)}…` : text)} into a process or terminal already running, and that is no shell line (text bash would not read, or a command no shell would find: a line for a REPL or a database console), so what it does cannot be read and it could write any file, and every claim of another session is in its way. ` +
        `Give the program its work as a command the hook can read instead (python3 fix.py, psql -c '…', a script file), or edit with the agent's own editor (apply_patch, Edit).`,
    );
  } else if (named.length < written.length && typed.length > 0) {
    const programs = typed.map((name) => printable(name)).join(", ");
    sentences.push(
      `The command starts ${programs}, which ${typed.length === 1 ? "takes" : "take"} commands typed at a terminal: the agent may type into it later (Codex's write_stdin, an MCP server's tool such as desktop-commander's interact_with_process), and what Codex types reaches no hook, while a line typed to the program is its input, not a shell command the hook can read, so what is typed could write any file (a pager's v opens an editor and ! runs a shell command, an editor's :w writes, a shell runs anything), and every claim of another session is in its way. ` +
        `Give it its work in its words or its input instead: read a file with cat, head or sed -n 1,80p (or LESSSECURE=1 less, whose keys write nothing), run a program with its script or a heredoc, edit with the agent's own editor (apply_patch, Edit).`,
    );
  } else if (named.length < written.length) {
    sentences.push(
      `The command ${named.length > 0 ? "also " : ""}writes files its text does not name: a file named only by a variable ("$f"), or commands it runs that the hook cannot read (a shell or interpreter reading its program from a pipe, eval, curl -K, wget -e, xz --files, a variable in an inline program's code: python3 -c "print($n)", whose value is better passed in the environment, N="$n" python3 -c '…os.environ["N"]…'), or text too large to read in time (a program over 256 KiB or with a line over 2,000 characters, a large heredoc that expands $(…), a command past 256 KiB or 150,000 parts), so every claim of another session is in its way. ` +
        `If it writes none of these files, run it with the files it writes spelled out, and what it runs as commands of their own, which the hook can read: only those files are judged (write a large file with the editor's write tool, or from a heredoc with a quoted delimiter, <<'EOF').`,
    );
  }
  return sentences.join("\n");
}
