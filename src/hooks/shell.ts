// The files a shell command will write, read from its syntax tree (tree-sitter's bash grammar, the
// same parser family the symbol claims use), not from a regex: redirections (`>`, `>>`, `&>`,
// `<>`), and the arguments of the commands that write the files they name (sed -i, perl -i, tee,
// cp, mv, rm, truncate, touch, dd of=, ln, install, patch, tar, unzip, git checkout/restore/rm/mv/apply,
// apply_patch), the work tree that git's branch, reset, stash and merge commands rewrite, what find's
// -delete and -exec reach, formatters and package managers (prettier --write, npm install x), through `sudo`/`env`/`timeout`-style wrappers, `bash -c '…'`, `eval '…'`,
// `xargs`, and `cd` before them. Each command's options are read as getopt reads them, from one declaration
// of the ones that take a value (shell-options.ts): `cp -at dst f` copies into dst, `sort -uo out` writes out.
//
// Only what the text itself says. A written word built from a variable, a command substitution or
// arithmetic is judged by the part the text fixes (judgedPath in shell-words.ts: `"$d/u.ts"` is a
// u.ts in a place unknown, as after an unknown `cd`; `"out-$n.ts"` any out-*.ts there), unless it is
// in temp space ($TMPDIR, mktemp); so is a write whose directory such a word decides (`cp -t "$d" f`,
// `git -C "$d"`). Where the text cannot name what is written at all (`curl … | sh`, `eval "$x"`,
// `curl -K`), it could be any file. What a script or program on disk writes from inside (`bash
// build.sh`, `python gen.py`, `npm run fmt`, `make`) is not read. docs/HOOKS.md lists both sides.
//
// This file is the cheap gate (mayWrite) and the entry (shellWrites). The hook loads it for every
// shell command; the rest loads only for a command that may write: the walk over the syntax tree,
// which loads the parser (shell-walk.ts); a word's value and the path it names (shell-words.ts);
// options (shell-options.ts); commands that run other commands: wrappers, shells, interpreters,
// xargs, find, package runners (shell-runners.ts); what each command writes (shell-rules.ts, which
// gathers shell-archive-rules.ts, shell-download-rules.ts, shell-git-rules.ts and
// shell-tool-rules.ts; a rule's shape and the readings rules share: shell-rule.ts).
import type { Environment } from "./shell-words.js";

/** A command that writes through the names it is given, or a redirection: worth parsing. Anything else is read-only to us. */
const WRITING_COMMAND =
  /(^|[\s;&|(`'"/\\])(sed|perl|tee|cp|mv|rm|rmdir|unlink|shred|truncate|touch|dd|ln|install|patch|apply_patch|bash|sh|zsh|dash|ksh|coproc|rsync|gzip|gunzip|bzip2|bunzip2|xz|unxz|wget|sudoedit|tar|unzip|7z|7za|7zr|7zz|xargs|eval|source)([\s;&|)`'"]|$)/;
/**
 * git with a subcommand that writes the work tree, find with an action that writes (`-delete`,
 * `-exec`, `-fprint`); sort, curl, awk, time, sudo and env only with what makes them write (`-o`, `-O`, `-K`, `-i`,
 * `-c`, `-D`, `-a` in a cluster of short options, or the start of a long option that names an
 * output; sudo's `-e`, env's `-S`); an interpreter reading a pipe or `<(…)`, and the `.` command:
 * loading the parser costs 40-50 ms.
 */
const WRITING_USE =
  /\|[^;&|\n]*\b(python[\d.]*|pypy3?|node(js)?|ruby|php)\b|\b(python[\d.]*|pypy3?|node(js)?|ruby|php)\b[^;&|\n]*<\(|(^|[;&|({\n])\s*\.\s+\S|\bgit(\s+(-[Cc]\s*\S+|--(git-dir|work-tree|namespace)(\s+|=)\S+|-\S+))*\s+(checkout|checkout-index|switch|restore|reset|stash(?!\s+(list|show)\b)|clean|rm|mv|apply|merge|merge-file|pull|rebase|cherry-pick|revert|am|bisect|read-tree|sparse-checkout|submodule)\b|\bfind\b[^;&|\n]*\s-(delete|exec|execdir|ok|okdir|fprint0?|fprintf|fls)\b|\b(sort|curl|awk|gawk|time)\b[^;&|\n]*\s(-[a-zA-Z]*[oOKicDa]|--(o|in|du|coo|tr|std|et|li|ap|re|con))|\bsudo\b[^;&|\n]*\s(-[a-zA-Z]*e|--ed)|\benv\b[^;&|\n]*\s(-[a-zA-Z]*S|--sp)/;
/**
 * Formatters and fixers with what makes them rewrite files (black, isort and rustfmt always), and
 * package managers with a subcommand that rewrites the manifest or lock file (shell-tool-rules.ts).
 */
const TOOL_USE = new RegExp(
  [
    String.raw`\b(black|isort|rustfmt)\b(?![^;&|\n]*\s(--check|--check-only|--diff|-c|--version|-h|--help)\b)`,
    String.raw`\bprettier\b[^;&|\n]*\s(--write|-[a-z]*w)`,
    String.raw`\b(eslint|stylelint|biome|deno)\b[^;&|\n]*\s(--(fix|write|apply|output-file)|-o)`,
    String.raw`\b(gofmt|goimports|shfmt)\b[^;&|\n]*\s(--?w\b|-[a-z]*w|--write)`,
    String.raw`\b(clang-format|autopep8|yapf)\b[^;&|\n]*\s(-[a-z]*i|--in-place)`,
    String.raw`\bruff\b[^;&|\n]*\s(format\b(?![^;&|\n]*\s--(check|diff)\b)|--fix|--fix-only|--add-noqa|-o|--output-file)\b`,
    String.raw`\brubocop\b[^;&|\n]*\s(-[a-zA-Z]*[aAxo]|--auto|--fix|--out)`,
    String.raw`\bgo(\s+-C\s*\S+)?\s+(fmt|mod\s+(tidy|edit|init|vendor)|get)\b|\b(terraform|dprint|deno)\b[^;&|\n]*\sfmt\b(?![^;&|\n]*\s--?check\b)|\bmix\s+format\b`,
    String.raw`\bcargo(\s+(\+|-)\S+)*\s+(fmt\b(?![^;&|\n]*--check)|fix|clippy\b[^;&|\n]*\s--fix|add|remove|rm|update\b(?![^;&|\n]*--dry-run))\b`,
    // A package manager's subcommand is its first word that is not an option (or an option's value).
    String.raw`\b(npm|pnpm|yarn|bun|corepack\s+(pnpm|yarn))(\s+-\S+(\s+[^-\s]\S*)?)*\s+(install|i|in|ins|inst|insta|instal|isnt|isnta|isntal|isntall|it|cit|sit|ic|install-test|install-clean|install-ci-test|ci|clean-install|add|a|remove|rm|r|uninstall|un|unlink|update|up|upgrade|udpate|dedupe|ddp|prune|rebuild|audit\s+fix|audit\b[^;&|\n]*--fix|version\s+\S|pkg\s+(set|delete|fix)|init|import|workspace|workspaces)\b`,
    String.raw`\byarn(\s+--?[\w=.-]+)*\s*($|[;&|)]|\d*[<>])`,
    String.raw`\b(poetry|uv)\b[^;&|\n]*\s(add|remove|lock|update|install|sync|init)\b(?![^;&|\n]*\s--(check|locked|frozen)\b)`,
  ].join("|"),
);
/** `2>&1`, `>&2`, `>/dev/null`: redirections that write no file. */
const HARMLESS_REDIRECTION = /\d*(>>?|&>>?|>\|)\s*\/dev\/null(?![\w./-])|\d*>&\s*(\d+|-)(?![\w./-])/g;

export function mayWrite(command: string): boolean {
  if (command.replace(HARMLESS_REDIRECTION, "").includes(">") || WRITING_COMMAND.test(command)) return true;
  // The uses are read as the shell would split them: line continuations joined, quotes gone (`git
  // "checkout" x`), and `|`, `;`, `&` inside quotes not taken for the end of a command.
  const words = command
    .replace(/\\\n/g, " ")
    .replace(/'[^']*'|"(\\.|[^"\\])*"/g, (quoted) => quoted.slice(1, -1).replace(/[|;&]/g, " "))
    .replace(/(\b(python[\d.]*|pypy3?)\b[^;&|\n]*\s-m)(?=[A-Za-z_])/g, "$1 "); // python -mblack
  return WRITING_USE.test(words) || TOOL_USE.test(words);
}

/**
 * Absolute paths the command writes (an existing directory stands for everything under it). The
 * environment is the one the command inherits, for the variables that name what a tool writes
 * (SIMPLE_BACKUP_SUFFIX, VERSION_CONTROL).
 */
export async function shellWrites(command: string, cwd: string, home: string, environment: Environment = process.env): Promise<string[]> {
  if (!mayWrite(command)) return [];
  // The walk, the rules and the parser load only now: most commands an agent runs write nothing.
  const { walkScript } = await import("./shell-walk.js");
  const { parserFor } = await import("../targets/symbols.js");
  const found = new Set<string>();
  await walkScript(command, { cwd, previous: undefined, stack: [], home, environment, found, temporary: new Set() }, 0, () => parserFor("bash"));
  return [...found];
}
