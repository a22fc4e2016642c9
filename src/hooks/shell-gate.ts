// The cheap gate before the shell reader (shell.ts): whether a command may write at all, read from
// its text with regexes (and, for a package's script run alone, that script's text), so that most
// commands an agent runs load no parser. A command it passes is read whole by the walk
// (shell-walk.ts), which also asks it whether a script nested deeper than it reads may write.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { aroundScript, nearestPackage, NPM_SCRIPTS, packageScripts } from "./package-scripts.js";
import { interpreterByExtension, withProgramAliases } from "./program-files.js";
import { HOOKED_COMMANDS, hooksRun, mayRunHooks } from "./git-hooks.js";

/**
 * A regex whose alternatives at its top level are tried one by one, each a regex of its own: the
 * same answer as testing it whole (none has a backreference, which would count its groups anew).
 * V8 compiles a regex the first time it runs, and for a long alternation of alternatives that
 * themselves hold wildcards and lookaheads it takes far longer as one than as its parts (the gate's
 * formatter list: 22 ms whole, 4 ms in parts, for every agent command it judges). And a part runs
 * only when the text holds a word every match of it holds (`black` or `isort` or `rustfmt` for
 * `\b(black|isort|rustfmt)\b…`, requiredWords): compiling the gate's regexes was most of the
 * 20 ms a Bash call writing nothing spent in the hook (`ls -la && git status` compiled them all),
 * and a part none of whose words is there cannot match. The regexes split so are exported
 * (SPLIT_REGEXES) for the test that checks each against its whole.
 */
export function alternatives(whole: RegExp): { readonly parts: RegExp[]; test(text: string): boolean } {
  // Split on the first test, and each part compiled the first time it runs: a hook call that
  // judges no shell command (an Edit) builds none of it, and one judging `ls` few of its parts.
  let split: { sources: string[]; words: Array<string[] | undefined>; compiled: Array<RegExp | undefined> } | undefined;
  const ready = () => (split ??= splitAlternatives(whole));
  const part = (at: number): RegExp => {
    const { sources, compiled } = ready();
    return (compiled[at] ??= new RegExp(sources[at] as string, whole.flags));
  };
  return {
    get parts() {
      return ready().sources.map((_, at) => part(at));
    },
    test: (text) => {
      const { sources, words } = ready();
      const folded = whole.ignoreCase ? text.toLowerCase() : text;
      for (let at = 0; at < sources.length; at++) {
        const needed = words[at];
        if ((needed === undefined || needed.some((word) => folded.includes(word))) && part(at).test(text)) return true;
      }
      return false;
    },
  };
}

function splitAlternatives(whole: RegExp): { sources: string[]; words: Array<string[] | undefined>; compiled: Array<RegExp | undefined> } {
  const source = whole.source;
  const sources = topAlternatives(source, 0, source.length);
  // A global or sticky regex keeps its place between tests: skipping one would change the next
  // answer. Nor one with the u or v flag: with i it matches the long s, U+017F, as `s`, which no
  // lowercasing makes of it; and v nests classes (`[[a]b]`), which requiredWords does not read.
  const plain = !whole.global && !whole.sticky && !/[uv]/.test(whole.flags);
  return { sources, words: sources.map((part) => (plain ? requiredWords(part, whole.ignoreCase) : undefined)), compiled: [] };
}

/**
 * The parts of a regex's source that matter to its structure: an escape, a class (in JavaScript `]`
 * right after `[` closes it: `[]`), a parenthesis, a bar. Read by this regex, not a character at
 * a time: JavaScript run once per character made reading the gate's sources take milliseconds.
 */
const STRUCTURE = /\\[\s\S]|\[(?:\\[\s\S]|[^\]\\])*\]|[()|]/g;
/** A run of characters that match themselves: plain ones, and escaped ones (`\.`, `\+`, `\/`). */
const LITERAL_RUN = /(?:[A-Za-z0-9_\- ,:=@%~<>!'"#&;/]|\\[.+*?^$/\\()[\]{}|\- ])+/y;

/**
 * Words of which every match of a regex (one with no top-level alternation, and no backreference)
 * holds one, lowercased when it ignores case; undefined when its source does not show them plainly.
 * Read from its first element that is a literal run (`git`), or a group of alternatives each
 * starting with one (`(sed|perl|mkfs(\.\w+)?)`: sed, perl, mkfs), and required: what comes before it
 * (`\b`, `(^|[\s;&])`, a lookaround, a class, an optional `g?`) is passed over whatever it matches,
 * and an element a quantifier makes optional (`?`, `*`, `{0,…}`) gives no word.
 */
export function requiredWords(source: string, ignoreCase = false): string[] | undefined {
  const fold = (words: string[]): string[] => (ignoreCase ? words.map((word) => word.toLowerCase()) : words);
  let at = 0;
  while (at < source.length) {
    const c = source[at] as string;
    if (c === "(") {
      const close = closingParen(source, at);
      if (close === -1) return undefined;
      const optional = isOptional(source, close + 1);
      if (!optional && !source.startsWith("(?", at)) {
        const words = topAlternatives(source, at + 1, close).map((alternative) => literalPrefix(alternative));
        if (words.every((word) => word !== "")) return fold(words);
      }
      at = skipQuantifier(source, close + 1);
      continue;
    }
    if (c === "[") {
      const close = closingBracket(source, at);
      if (close === -1) return undefined;
      at = skipQuantifier(source, close + 1);
      continue;
    }
    if (c === "\\" && !/[.+*?^$/\\()[\]{}|\- ]/.test(source[at + 1] ?? "")) {
      if (/[xucpPk0-9]/.test(source[at + 1] ?? "")) return undefined; // \x41, \u{…}, \p{…}, \1: not read here
      at = skipQuantifier(source, at + 2); // \b, \s, \w, \d: no literal
      continue;
    }
    if (c === "^" || c === "$" || c === ".") {
      at = skipQuantifier(source, at + 1);
      continue;
    }
    const word = literalPrefix(source, at);
    if (word !== "") return fold([word]);
    // A literal character a quantifier makes optional (`g?`), or one this does not read.
    if (c === "|" || c === ")") return undefined;
    at = skipQuantifier(source, at + (c === "\\" ? 2 : 1));
  }
  return undefined;
}

/** The literal text an alternative starts at `start` with, up to its first character that is not plain or is made optional. */
function literalPrefix(source: string, start = 0): string {
  LITERAL_RUN.lastIndex = start;
  let run = LITERAL_RUN.exec(source)?.[0];
  if (run === undefined) return "";
  // Its last character made optional (`g?`, `ab*`, `ab{0,2}`): the run ends before it. A `+` or
  // `{2}` after it repeats it: the run, which it ends, holds it once.
  if (isOptional(source, start + run.length)) run = run.slice(0, run.length - (/(^|[^\\])(\\\\)*\\[\s\S]$/.test(run) ? 2 : 1));
  return run.replace(/\\([\s\S])/g, "$1");
}

/** Whether a quantifier at `at` lets the element before it match nothing (`?`, `*`, `{0`, `{,`). */
function isOptional(source: string, at: number): boolean {
  const c = source[at];
  return c === "?" || c === "*" || (c === "{" && /^\{(0|,)/.test(source.slice(at)));
}

/** Past a quantifier at `at`, if there is one (and its lazy `?`). */
function skipQuantifier(source: string, at: number): number {
  let next = at;
  if (source[next] === "?" || source[next] === "*" || source[next] === "+") next++;
  else if (source[next] === "{") {
    const close = source.indexOf("}", next);
    if (close !== -1) next = close + 1;
  }
  if (next > at && source[next] === "?") next++;
  return next;
}

/** The index of the `)` closing the group opening at `open`; -1 if none. */
function closingParen(source: string, open: number): number {
  let depth = 0;
  STRUCTURE.lastIndex = open;
  for (let match = STRUCTURE.exec(source); match !== null; match = STRUCTURE.exec(source)) {
    if (match[0] === "(") depth++;
    else if (match[0] === ")" && --depth === 0) return match.index;
  }
  return -1;
}

/** The index of the `]` closing the class opening at `open` (in JavaScript, `[]` is a class); -1 if none. */
function closingBracket(source: string, open: number): number {
  STRUCTURE.lastIndex = open;
  const match = STRUCTURE.exec(source);
  return match !== null && match.index === open && match[0].startsWith("[") ? open + match[0].length - 1 : -1;
}

/** The alternatives at the top level of `source` from `start` to `end` (a group's inside, or a whole regex). */
function topAlternatives(source: string, start: number, end: number): string[] {
  const found: string[] = [];
  let depth = 0;
  let from = start;
  STRUCTURE.lastIndex = start;
  for (let match = STRUCTURE.exec(source); match !== null && match.index < end; match = STRUCTURE.exec(source)) {
    if (match[0] === "(") depth++;
    else if (match[0] === ")") depth--;
    else if (match[0] === "|" && depth === 0) {
      found.push(source.slice(from, match.index));
      from = match.index + 1;
    }
  }
  found.push(source.slice(from, end));
  return found;
}

/** A command that writes through the names it is given, or a redirection: worth parsing. Anything else is read-only to us. */
const WRITING_COMMAND =
  alternatives(/(^|[\s;&|(`'"/\\])g?(sed|perl|tee|cp|mv|rm|rmdir|unlink|shred|truncate|touch|dd|ln|install|patch|apply_patch|applypatch|bash|sh|zsh|dash|ksh|ash|mksh|lksh|oksh|pdksh|yash|posh|rbash|fish|csh|tcsh|nu|pwsh|powershell|xonsh|elvish|toybox|fallocate|chmod|chown|chgrp|chattr|setfacl|setfattr|cmake|coproc|rsync|gzip|gunzip|bzip2|bunzip2|xz|unxz|lzma|unlzma|gzexe|mkswap|mkfs(\.\w+)?|mke2fs|mkdosfs|wget|sudoedit|sponge|ed|ex|vi|vim|nvim|vimdiff|gvim|gvimdiff|rview|gview|nano|emacs|tar|unzip|7z|7za|7zr|7zz|xargs|eval|source|trap|alias|scp|sftp|gdb|lldb|trash|trash-put|rmtrash|gio|dos2unix|unix2dos|mac2unix|unix2mac|rename|sd|xxd|pigz|unpigz|zstd|zstdmt|unzstd|pzstd|lz4|unlz4|brotli|compress|uncompress|uudecode|mmv|mcp|mad|mln|bsdtar|cpio|pandoc|sqlite3|strip|objcopy|ssh-keygen|zip|split|csplit|mkfifo|mknod|link|mktemp|lint-staged(@\S*)?|pre-commit|pre_commit|prek|lefthook|setlock|flock|mapfile|readarray)([\s;&|)`'"]|$)/);
/**
 * git with a subcommand that writes the work tree (Git LFS's pull, checkout and migrate too),
 * find with an action that writes (`-delete`, `-exec`, `-fprint`), fd with a command to run (`-x`, `-X`); sort, curl, awk, time, sudo and env only with what makes them write (`-o`, `-O`, `-K`, `-i`,
 * `-c`, `-D`, `-a` in a cluster of short options, or the start of a long option that names an
 * output; sudo's `-e`, env's `-S`); an interpreter reading a pipe or `<(…)` or the terminal (no
 * program, `-i`) or given its program inline (`-c`, `-e`, a heredoc: shell-programs.ts) or as a word a
 * substitution prints (`python3 $(ls *.py | head -1)`), and the `.` command; `hash -p` and `PS4=`, which change what a later command
 * runs; tools whose output is an operand or option (`strace -o`, `fakeroot -s`, `daemonize -o`, `numactl --file`, `chpst -l`, `firejail --output=`, `history -w`,
 * `uniq in out`, `openssl -out` (and the others openssl writes or loads code by), `git diff --output`, `git format-patch`, `git -c alias.x='!cmd'`); gpg
 * given an options file or a home that may hold one (`--options`, `--homedir`, `GNUPGHOME=`), a file
 * of its own to write (`--status-file`, `--keyring`) or a program to run (`--agent-program`); ssh
 * and ssh-add a library to load (`-I`, `-s`, `-S`), and a variable that loads one into any program
 * (`SSH_SK_PROVIDER=`, `LD_PRELOAD=`), or a program ssh asks a passphrase of (`SSH_ASKPASS=`); a
 * command line the text does not fix, given to sg (`sg g -c "$cmd"`), su, runuser, flock, nix-shell,
 * npx, mise, nodemon (`su -c "$cmd"`), watchexec, hyperfine or parallel, and su reading its input (`| su`, `su <<<`);
 * crontab, whose table's jobs run later;
 * a command the text does not fix after the user or directory envdir, envuidgid and setuidgid take:
 * loading the parser costs 40-50 ms.
 */
export const WRITING_USE = alternatives(
  /\|[^;&|\n]*\b(python[\d.]*|pypy3?|node(js)?|ruby|php)\b|\b(python[\d.]*|pypy3?|node(js)?|ruby|php|irb|ipython|bpython|ptpython)(\s+-\S*(\s+[^-\s;&|()]\S*)?)*\s*($|[;&|)\n])|\b(python[\d.]*|pypy3?|node(js)?)\b[^;&|\n]*\s(-i|--interactive)\b|\bphp\b[^;&|\n]*\s-a\b|\b(python[\d.]*|pypy3?|node(js)?|ruby|php)\b[^;&|\n]*<\(|\b(python[\d.]*|pypy3?|node(js)?|ruby|php|perl|bun|tsx|ts-node)(\s+-\S+)*\s+["']?(\$\(|`)|(^|[;&|({\n])\s*\.\s+\S|\bgit(\s+(-[Cc]\s*\S+|--(git-dir|work-tree|namespace)(\s+|=)\S+|-\S+))*\s+(checkout|checkout-index|switch|restore|reset|stash(?!\s+(list|show)\b)|clean|rm|mv|apply|merge|merge-file|pull|rebase|cherry-pick|revert|am|bisect|read-tree|sparse-checkout|submodule|subtree|worktree|config|clone|init|archive|bundle|mergetool|lfs\s+(-\S+\s+)*(pull|checkout|migrate))\b|\bgit-lfs\s+(-\S+\s+)*(pull|checkout|migrate)\b|\bg?find\b[^;&|\n]*\s-(delete|exec|execdir|ok|okdir|fprint0?|fprintf|fls)\b|\b(fd|fdfind)\b[^;&|\n]*\s(-[a-zA-Z0-9]*[xX]|--exec)|\bsudo\b[^;&|\n]*\s(-[a-zA-Z]*e|--ed)|\benv\b[^;&|\n]*\s(-[a-zA-Z]*S|--sp)|\bhash\s+(-\S+\s+)*-[a-z]*p|\bPS4=|\b(strace|ltrace)\b[^;&|\n]*\s(-[a-zA-Z]*o|--output)|\bfakeroot\b[^;&|\n]*\s-[a-z]*s|\bnumactl\b[^;&|\n]*\s(-[a-zA-Z]*f|--f)|\bchpst\b[^;&|\n]*\s-[a-zA-Z/]*[lL]|\bfirejail\b[^;&|\n]*\s--(output|output-stderr|trace|build|get|put)=|\bhistory\s+(-\S+\s+)*-[a-z]*[aw]|\buniq\b(\s+-[fsw]\s*\d+|\s+-\S+)*\s+([^-\s;&|<>]\S*|-)\s+[^\s;&|<>]|\bgit\b[^;&|\n]*\s(--output(=|\s)|format-patch\b)|\b(python[\d.]*|pypy3?|node(js)?|bun|tsx|ts-node|ruby|php|ipython)\b[^;&|\n]*(\s-[a-zA-Z]*[cepEr](\s|$)|\s--(eval|print)\b|<<)|\bdeno\s+eval\b|\bgit\b[^;&|\n]*\s(-c\s*['"]?|config\s+(--\S+\s+)*)alias\.|\bssh\b[^;&|\n]*\s-(E|[a-zA-Z]*[oFSLI])|\bcapsh\b|\bdaemonize\b|\bsg\s+(-l?\s+)?[^-\s]\S*\s+(-c\s+)?\$|\b(su|runuser|flock|nix-shell|npx|npm|pnpm|mise|nodemon)\b[^;&|\n]*\s(-[a-zA-Z]*[cCx]|--(command|session-command|run|call|exec))\b[^;&|\n]*[$`]|\b(watchexec|hyperfine|parallel)\b[^;&|\n]*[$`]|\b(envdir|envuidgid|setuidgid)\s+\S+\s+[$`]|\|[^;&|\n]*\b(su|runuser)\b|\b(su|runuser)\b[^;&|\n]*<|\bhyperfine\b[^;&|\n]*\s--(export|output)|\bparallel\b[^;&|\n]*\s--(joblog|results?|res)\b|(^|[;&|(]\s*)(at|batch)(\s|$)|\bcrontab\b|\b(shuf|sdiff)\b[^;&|\n]*\s(-[a-zA-Z]*o|--o)|\b(npm|pnpm|yarn|bun)\s+(create|init\s+[^-\s])|(^|[\s;&|(/])(create-[\w.-]+|degit|tiged)\b|\b(python[\d.]*|pypy3?)\b[^;&|\n]*\s-m\s*(json\.tool|venv|zipfile|tarfile|cProfile|profile|trace|pickletools|zipapp|uu|doctest|timeit)\b|\b(node(js)?|tsx)\b[^;&|\n]*\s--(redirect-warnings|cpu-prof|heap-prof|heapsnapshot-|report-|diagnostic-dir|trace-event|test-reporter-destination|test-update-snapshots|tls-keylog|localstorage-file|build-snapshot|experimental-sea-config|prof|logfile)|\bNODE_V8_COVERAGE=|\b(docker|podman|nerdctl)\b[^;&|\n]*\srun\b[^;&|\n]*\s(-v|--volume|--mount|--cidfile|--volumes-from)\b|\bgh\b[^;&|\n]*\s(checkout|co|clone|download)\b|\b(docker|podman|nerdctl)\b[^;&|\n]*\scp\b|\b(docker|podman|nerdctl)(-compose)?\b[^;&|\n]*\s(exec|run)\b|\b[gmn]?awk\b[^\n]*@(include|load)\b|\bnode\b[^;&|\n]*\s--run\b|(^|[;&|(`]\s*)nr(\s|$)|(^|[;&|(`\s])rake(\s|$)|\b(pdm|hatch)\s+(-\S+\s+)*run\s|(^|[;&|(`\s])mise\s+[^\s;&|]|(^|[;&|(`\s])poe\s+[^-\s]|\b(quicktype|xmllint|pbjs|pbts|oapi-codegen)\b[^;&|\n]*\s(-o|--out|--output)(\s|=|$)|\bjson2ts\b|\b(2to3|lib2to3)\b[^;&|\n]*\s-[a-zA-Z]*w|\bsyncpack\s+(fix-mismatches|format|set-semver-ranges|update|fix|prompt)\b|\btaze\b[^;&|\n]*\s(-[a-zA-Z]*w|--write)\b|\bjson\b[^;&|\n]*\s(-[a-zA-Z]*I|--in-place)\b|\b(graphql-codegen|gql-gen|graphql-code-generator)\b|\b(mockgen|stringer|kysely-codegen|datamodel-codegen)\b[^;&|\n]*\s--?(destination|output|out-file)(\s|=|$)|\b(g?sort|curl|awk|gawk|time)\b[^;&|\n]*\s(-[a-zA-Z]*[oOKicDa]|--(o|in|du|coo|tr|std|et|li|ap|re|con|com|hs|al))|\bopenssl\b[^;&|\n]*\s(--?(out|keyout|writerand|certsout|sess_out|keylogfile|msgfile|respout|reqout|rspout|certout|chainout|extracertsout|cacertsout|crlout|oldwith|newwith|srpvfile|CA|new|x509|signer|engine|provider|config)|-["'$\\`]|(rehash|c_rehash|ca|engine|srp|ts)\b)|\bOPENSSL_(CONF|ENGINES|MODULES)=|\b(SSH_SK_PROVIDER|LD_PRELOAD|LD_AUDIT|DYLD_INSERT_LIBRARIES|SSH_ASKPASS)=|\bssh-add\b[^;&|\n]*\s-[a-zA-Z]*[sS]|\byq\b[^;&|\n]*\s(-[a-zA-Z]*i|--in-?place)|\b(iconv|gpg2?)\b[^;&|\n]*\s(-[a-zA-Z]*o|--output|--(de|en)crypt-files|--(sign|encrypt|symmetric|clear-?sign|detach-sign)\b)|\bgpg2?\b[^;&|\n]*\s-[a-zA-Z]*[escb]\b|\bgpg2?(?![\w-])[^;&|\n]*\s([^-\s;&|<>]|--(use-e|sto|ena|dea|opt|hom|stat|log|attr|keyr|prim|secret-k|trustdb|agent|dirm|exec|photo|gen|full-gen))|\bgpgv\b[^;&|\n]*\s(-[a-zA-Z]*o|--o)|\bgpg-agent\b[^;&|\n]*\s--(log|pin|scd|tpm|opt|daemon\s+[^-\s;&|])|\bgpgsm\b[^;&|\n]*\s(-[a-zA-Z]*o|--(o|stat|log|agent|dirm))|\bGNUPGHOME=|\bblkid\b[^;&|\n]*\s(-[a-zA-Z]*c|--cache)/,
);
/**
 * git with a subcommand that is none of git's own: an alias (`git co -- f`), read from git's
 * config by the walk (shell-git-rules.ts keeps the same list of git's commands; `lfs` is Git LFS's,
 * which git runs before any alias of that name).
 */
const GIT_ALIAS_USE =
  alternatives(/\bgit(\s+(-[Cc]\s*\S+|-c\s*\S+|--(git-dir|work-tree|namespace)(\s+|=)\S+|-\S+))*\s+(?!(add|am|annotate|apply|archive|bisect|blame|branch|bundle|cat-file|check-attr|check-ignore|checkout|checkout-index|cherry|cherry-pick|citool|clean|clone|commit|commit-tree|config|count-objects|credential|describe|diff|diff-files|diff-index|diff-tree|difftool|fetch|for-each-ref|format-patch|fsck|gc|grep|hash-object|help|init|instaweb|lfs|log|ls-files|ls-remote|ls-tree|maintenance|merge|merge-base|merge-file|mergetool|mktree|mv|name-rev|notes|pack-objects|prune|pull|push|range-diff|read-tree|rebase|reflog|remote|repack|replace|reset|restore|rev-list|rev-parse|revert|rm|send-email|shortlog|show|show-branch|show-ref|sparse-checkout|stash|status|stripspace|submodule|switch|symbolic-ref|tag|update-index|update-ref|var|verify-commit|verify-tag|version|whatchanged|worktree|write-tree)(?![\w-]))[A-Za-z][\w-]*/);

/**
 * Formatters and fixers with what makes them rewrite files (black, isort and rustfmt always), and
 * package managers with a subcommand that rewrites the manifest or lock file (shell-tool-rules.ts).
 */
export const TOOL_USE = alternatives(
  new RegExp(
    [
      String.raw`\b(black|isort|rustfmt)\b(?![^;&|\n]*\s(--check|--check-only|--diff|-c|--version|-h|--help)\b)`,
      String.raw`\bprettier\b[^;&|\n]*\s(--write|-[a-z]*w)`,
      String.raw`\b(eslint|stylelint|biome|deno)\b[^;&|\n]*\s(--(fix|write|apply|output-file)|-o)`,
      String.raw`\b(gofmt|goimports|gofumpt|shfmt)\b[^;&|\n]*\s(--?w\b|-[a-z]*w|--write)`,
      String.raw`\b(clang-format|autopep8|yapf|docformatter|cmake-format|ormolu|fourmolu)\b[^;&|\n]*\s(-[a-z]*i|--in-place|--mode[=\s]+inplace)`,
      String.raw`\bperltidy\b[^;&|\n]*\s(-[a-z]*b|--backup-and-modify-in-place)|\bswiftlint\b[^;&|\n]*\s(--fix|--autocorrect|autocorrect)\b|\b(ktfmt|scalafmt|treefmt)\b|\brome\b[^;&|\n]*\s--(apply|apply-unsafe|write|fix)\b|\bruff\b[^;&|\n]*\s--(fix|fix-only|add-noqa)\b`,
      String.raw`\bruff\b[^;&|\n]*\s(format\b(?![^;&|\n]*\s--(check|diff)\b)|check\b(?![^;&|\n]*\s--no-fix\b)|--fix|--fix-only|--add-noqa|-o|--output-file)\b`,
      String.raw`\brubocop\b[^;&|\n]*\s(-[a-zA-Z]*[aAxo]|--auto|--fix|--out)`,
      String.raw`\bgo(\s+-C\s*\S+)?\s+(fmt|fix|mod\s+(tidy|edit|init|vendor)|get)\b|\b(terraform|dprint|deno|zig|taplo)\b[^;&|\n]*\sfmt\b(?![^;&|\n]*\s--?check\b)|\bmix\s+format\b`,
      // autoflake -i; pyupgrade, mdformat, nbstripout (not their checks) and nbconvert, which rewrite or write beside what they are given; `jupyter execute`, which runs notebooks.
      String.raw`\bautoflake\b[^;&|\n]*\s(-[a-z]*i|--in-place)|\b(pyupgrade|nbconvert)\b|\bjupyter\s+(-\S+\s+)*execute\b|\bmdformat\b(?![^;&|\n]*\s--check\b)|\bnbstripout\b(?![^;&|\n]*\s(-t|--textconv|--dry-run|--verify|--is-installed|--status)\b)`,
      // More formatters, fixers and minifiers (shell-formatters-more.ts), in a command's place as the project tools are.
      String.raw`(^|[;&|(\x60{!\n]|\b(if|then|else|do|while|until|sudo|doas|env|time|nice|nohup|command|exec|timeout\s+\S+|npx|bunx|pnpx|dlx|uvx|x|run|tool|--)\s)(\s*([A-Za-z_]\w*=\S*|-\S+)(\s+|$))*\s*(\S*/)?(astyle|uncrustify|tidy|js-beautify|css-beautify|html-beautify|svgo|doctoc|markdown-toc|lebab|ts-standard|tslint|eslint_d|textlint|terser|uglifyjs|uglify-js|csso|cleancss|html-minifier(-terser)?|ncc|add-trailing-comma|reorder-python-imports|pycln|unimport|flynt|blacken-docs|pyproject-fmt|toml-sort|usort|ufmt|darker|pyink|blue|ssort|golines|gopls|sqlfluff|pg_format|sql-formatter|sqlfmt|csharpier|alejandra|nixfmt|nixpkgs-fmt|rufo|stree|erb_lint|erblint|rector|ocamlformat|elm-format|stylish-haskell|cabal-fmt|hindent|purs-tidy|erlfmt|gleam|cljfmt|lua-format|gersemi|latexindent|djlint|yamlfmt|semgrep|fastmod|ruplacer|optipng|oxipng|jpegoptim|gifsicle|pngquant|cwebp|exiftool)(\s|$)`,
      String.raw`\bgit\b[^;&|\n]*\s(clang-format|filter-repo|town)\b`,
      // Reports, coverage data, packages and renderings (shell-report-rules.ts; npm pack, pip wheel and download: shell-tool-rules.ts).
      String.raw`\bcoverage\s+(-\S+\s+)*(run|combine|erase|xml|json|lcov|html)\b|\b(c8|nyc|genhtml|sphinx-apidoc)\b|\blcov\b[^;&|\n]*\s(-o|--output-file)|\b(flake8|pylint|mypy|bandit)\b[^;&|\n]*\s--?(output-file|output|junit-xml|[a-z-]+-report|o)\b|\b(dot|neato|twopi|circo|fdp|sfdp)\b[^;&|\n]*\s-[oO]|\bpg_restore\b[^;&|\n]*\s(-f|--file)|\b(npm|pnpm|yarn)\s+pack\b|\bpip3?\s+(wheel|download)\b`,
      // Profilers' own output files, and pm2's (shell-profiler-rules.ts): `pyinstrument -o f`, scalene's and kernprof's profiles, memray's results and
      // reports, `py-spy record`, `austin -o f`, 0x, clinic; pm2's dump and the logs, pid file and configuration it is told to write (`pm2 -o f start x.js`).
      String.raw`\b(pyinstrument|austin)\b[^;&|\n]*\s(-[a-zA-Z?]*o|--o)|\b(scalene|kernprof)\b|\bmemray\s+(-\S+\s+)*(run|flamegraph|table|transform|stats|attach)\b|\bpy-spy\s+(-\S+\s+)*record\b|(^|[\s;&|(/])0x(\s|$)|\bclinic\s+(-\S+\s+)*(doctor|bubbleprof|flame|heapprofiler|clean)\b|\bpm2\s+(-\S+\s+)*(save|dump|cleardump)\b|\bpm2\b[^;&|\n]*\s(-[a-zA-Z]*[oelpw]|--(output|error|log|pid|write))\b`,
      // Data files edited in place, downloads, cloud storage copied here, container builds' outputs (shell-data-rules.ts, shell-launchers.ts).
      String.raw`\b(xmlstarlet|xml)\s+(-\S+\s+)*ed(it)?\b[^;&|\n]*\s(-L|--inplace)\b|\bmlr\b[^;&|\n]*(\s(-I|tee|split)\b|\b(system|exec)\b|>)|\bdasel\s+(\S+\s+)*(put|delete)\b|\b(xsltproc|sops|yt-dlp|youtube-dl|rclone|azcopy)\b|\bansible-vault\s+(\S+\s+)*(create|edit|rekey|encrypt|decrypt|encrypt_string)\b|\bgsutil\b[^;&|\n]*\s(cp|mv|rsync)\b|\bgcloud\b[^;&|\n]*\s(storage\s+(cp|mv|rsync)\b|--(out-file|plaintext-file|ciphertext-file)\b|keys\s+create\b|scp\b)|\baz\s+(storage|keyvault|bicep)\b|\bs3cmd\s+(\S+\s+)*(get|sync)\b|\b(docker|podman|nerdctl)\b[^;&|\n]*\s(build|b|bake|save|export)\b[^;&|\n]*\s(-o|--output|--iidfile|--metadata-file|--cache-to)`,
      // Python packages' builds, pretty-quick, Flask-Migrate, TypeORM's TypeScript entry points (shell-project-tools.ts, shell-tool-rules.ts, shell-lock-rules.ts).
      String.raw`\b(python[\d.]*|pypy3?)\b[^;&|\n]*\s-m\s*(build|PyInstaller|yt_dlp|youtube_dl|mypy\.stubgen|jupytext|papermill|sqlacodegen)\b|\bpyproject-build\b|\b(uv|poetry|hatch|pdm|flit|maturin)\b[^;&|\n]*\s(build|develop|sdist)\b|\bhatch\b[^;&|\n]*\sclean\b|\bmaturin\s+(new|init)\b|\bpyinstaller\b|\b(pretty-quick|typeorm-ts-node-(commonjs|esm))\b|\bflask\b[^;&|\n]*\sdb\s`,
      // Converters, generators and small file tools (shell-converter-rules.ts); uv venv, poetry new, hatch new, git cliff.
      String.raw`\b(mkcert|mmdc|mermaid-cli|plantuml|qpdf|pdftotext|pdftoppm|recode|cpy|ncp|cpx|copyfiles|del-cli|buildifier|rpl|wasm-opt|upx|stubgen|virtualenv|git-filter-repo|prename|perl-rename|file-rename)\b|(^|[;&|(\x60\s])(age|age-keygen|del)\s|\btypos\b[^;&|\n]*\s(-[a-zA-Z]*w|--write-changes)|\buv\b[^;&|\n]*\svenv\b|\b(poetry|hatch)\b[^;&|\n]*\snew\b|\bgit\b[^;&|\n]*\scliff\b|\b(jupytext|papermill|dbt|sqlacodegen|liquibase)\b|\bscrapy\s+(\S+\s+)*(crawl|runspider|startproject|genspider)\b|\bgh\s+gist\s+clone\b`,
      // .NET's templates, solutions, EF migrations, local tools and F# scripts (`dotnet fsi x.fsx`); Dart's and Flutter's generators, new projects and builds; mix's generators, new projects and compiling tasks (shell-dotnet-rules.ts, shell-pub-mix-rules.ts).
      String.raw`\bdotnet\s+(-\S+\s+)*(new|sln|solution|ef|tool|fsi)\b|\b(dart|flutter)\s+(-\S+\s+)*(create|compile|build|gen-l10n|packages)\b|\b(build_runner|flutterfire)\b|\bmix\s+(-\S+\s+)*(new|compile|release|test|deps\.compile|ecto\.gen\.migration|phx\.(new|gen|digest)|run|do|escript\.build|docs|release\.init|archive\.build|hex\.build)\b`,
      // More code generators (shell-project-tools.ts, shell-codegen-rules.ts).
      String.raw`\b(swagger-typescript-api|kubb|relay-compiler|next-sitemap|contentlayer2?|velite|tsoa|organize-imports-cli|typechain|openapi-typescript-codegen|openapi-zod-client|ts-to-zod|tsc-alias|dts-bundle-generator|ts-json-schema-generator|graphql-schema-typescript|replace-in-file|swagger-codegen(-cli|3)?|node-pg-migrate|db-migrate)\b|\bpayload\s+(generate|migrate:create|run)|\bsanity\b[^;&|\n]*\s(typegen|schema|exec)\b|\bhardhat\b[^;&|\n]*\srun\b|\bapollo\s+(client:codegen|service:download)\b`,
      // Compiled languages' builds (shell-compiled-rules.ts).
      String.raw`\bswift\s+(-\S+\s+)*(build|test|run|package\s+(init|clean|reset))\b|\bzig\s+(-\S+\s+)*(build|init|build-exe|build-lib|build-obj|test|cc|c\+\+)\b|\bdune\s+(build|test|exec|fmt|init)\b|\b(stack|cabal)\s+(-\S+\s+)*((v2-|new-)?(build|test|run|install)|bench|exec|haddock|clean|setup|init|new|repl|configure|freeze)\b|\b(ghc|swiftc|emcc|em\+\+|kotlinc|msbuild)\b|\bnim\s+(c|cc|cpp|compile|js|objc)\b|\bcrystal\s+(build|init)\b|\belm\s+(make|init|install)\b|\bconan\s+(install|build|new)\b|\bvcpkg\s+(-\S+\s+)*(install|new|add)\b`,
      // Site builders, helm and kustomize, meson and bazel, dvc, databases' dumps, svn and hg (shell-site-rules.ts).
      String.raw`\b(hugo|eleventy|mongodump|mongoexport|duckdb)\b|\b(jekyll|mdbook|zola)\s+(-\S+\s+)*(build|b|serve|s|server|watch|new|init|clean)\b|\b(docusaurus|vitepress|gatsby)\s+(build|start|develop|init|new|clean|write-translations|write-heading-ids|swizzle|clear|docs:version)\b|\bhelm\b[^;&|\n]*\s(template|create|pull)\b|\bkustomize\s+(build|create|edit|init|localize)\b|(^|[;&|(\x60\s])meson\s|\bbazel(isk)?\s+(\S+\s+)*(build|test|coverage|run|mod|clean)\b|\bdvc\s|\bredis-cli\b[^;&|\n]*\s--(functions-)?rdb\b|(^|[;&|(\x60\s])(svn|hg)\s`,
      // Manifests' and version managers' pin files, and jj's and Graphite's work-tree commands (shell-project-tools.ts).
      String.raw`(^|[;&|(\x60{!\n]|\b(if|then|else|do|while|until|sudo|doas|env|time|nice|nohup|command|exec|npx|bunx|pnpx|dlx|--)\s)\s*(volta\s+pin|fixpack|prettier-package-json|(@manypkg/cli|manypkg)|(py|rb|nod)env\s+local|asdf\s+(set|local)|jj|gt)(\s|$)|\buv\s+python\s+pin\b|\b(npm\s+set-script|yarn\s+constraints|composer\s+normalize)\b`,
      // Rust's clippy, nextest, llvm-cov, tarpaulin and install, cross, trunk; sbt and lein; test runners' reports,
      // screenshots and snapshots; stringer's default file; forge, hardhat, solc; app packagers (shell-more-tools.ts).
      String.raw`\bcargo\b[^;&|\n]*\s(clippy|nextest|llvm-cov|tarpaulin|install|watch)\b|\bcross\b[^;&|\n]*\s(build|b|check|c|test|t|run|r|bench|doc|d|clippy|fix|fmt|clean|rustc|rustdoc)\b|\btrunk\s+(-\S+\s+)*(build|serve|watch|clean)\b|(^|[^\w.-])sbt(\s|$|[;&|)])|\blein\s|\brspec\b[^;&|\n]*\s(-o|--out|--deprecation-out|--init)|\bphpunit\b[^;&|\n]*\s--(log-|coverage-|testdox-|generate-configuration|migrate-configuration)|\bgotestsum\b[^;&|\n]*\s--(junitfile|jsonfile)|\bmocha\b[^;&|\n]*\s(-O|--reporter-options?\b|(-R|--reporter)[\s=]+(mocha-junit-reporter|mochawesome)\b)|\bcypress\s+(-\S+\s+)*(run|open)\b|\bbackstop\s+(-\S+\s+)*(reference|test|approve|init)\b|\btap\b[^;&|\n]*\s(--snapshot|-S|--output-file|-o|--output-dir|-d)\b|\bTAP_SNAPSHOT=|\bstringer\b[^;&|\n]*\s--?type\b|\bforge\s+(-\S+\s+)*(build|b|compile|test|t|create|inspect|clean|verify-contract|snapshot|coverage|script|bind|doc|flatten|fmt|init|install|i|update|u|remove|rm|config)\b|\bhardhat(\s|$)|\bsolc\b[^;&|\n]*\s(-o|--output-dir)|(\bcap|@capacitor/cli)\s+(-\S+\s+)*(sync|copy|add|update|init|migrate|run|build)\b|(\btauri|@tauri-apps/cli)\s+(-\S+\s+)*[a-z]|\belectron-builder\b|\bvsce\s+(-\S+\s+)*(package|publish)\b|\bpatch-package\b`,
      // clang-tidy -fix (and its reports), google-java-format -i, stylua (not --check), phpcbf, standardrb --fix.
      String.raw`\bclang-tidy\b[^;&|\n]*\s--?(fix|export-fixes|store-check-profile)|\bgoogle-java-format\b[^;&|\n]*\s--?(i|r|replace)\b|\bstylua\b(?![^;&|\n]*\s(-c|--check)\b)|\bphpcbf\b|\bstandardrb\b[^;&|\n]*\s(-[a-zA-Z]*[aAxo]|--fix|--auto|--out)`,
      // dotnet format, swift-format (and Swift 6's swift format), taplo format, tflint --fix (buf's commands pass as its generate does, below).
      String.raw`\b(dotnet|taplo)\s+(-\S+\s+)*format\b|\bswift(-format|\s+format)\b|\btflint\b[^;&|\n]*\s--fix\b`,
      String.raw`\bcargo(\s+((\+|-)\S+|--config\s+\S+))*\s+(fmt\b(?![^;&|\n]*--check)|fix|clippy\b[^;&|\n]*\s--fix|add|remove|rm|upgrade|set-version|insta|update\b(?![^;&|\n]*--dry-run)|build|b|check|c|test|t|run|r|bench|doc|d|clean|rustc|rustdoc|new|init|generate-lockfile|(metadata|tree|fetch|vendor)\b(?![^;&|\n]*\s--(locked|frozen|no-deps)\b))\b`,
      String.raw`\bshadcn(-ui)?\s+(\S+\s+)*(add|init|create)\b`,
      // pytest's reports (shell-codegen-rules.ts).
      String.raw`\b(pytest|py\.test)\b[^;&|\n]*\s--(junit-?xml|html|resultlog|cov|cov-report|basetemp|snapshot-update|inline-snapshot|force-regen|regen-all)\b`,
      // Frameworks' and code generators' own commands (shell-codegen-rules.ts).
      String.raw`\bterraform\b[^;&|\n]*\s(init|get|apply|destroy|import|refresh|taint|untaint|state|providers|plan)\b|\b(manage\.py|django-admin|alembic|protoc|buf|sqlc|drizzle-kit|rails|openapi-typescript|openapi-generator(-cli)?|storybook)\b|\bcargo\s+(-\S+\s+)*(sort|machete|release|sqlx)\b|\bgo\s+(-C\s*\S+\s+)?tool\s|\bcollectstatic\b|\bexpo\s+prebuild\b|\bnext\s+lint\b[^;&|\n]*\s--fix\b`,
      // Release tools, framework generators, Go's generators, migrations' and catalogs' generators
      // (shell-project-tools.ts): in a command's place (after `;`, `&&`, a keyword, a wrapper, a
      // package runner, with assignments and options between), not as a word of prose (`git commit
      // -m "auto migrate"`), which would load the parser for nothing.
      String.raw`(^|[;&|(\x60{!\n]|\b(if|then|else|do|while|until|sudo|doas|env|time|nice|nohup|command|exec|timeout\s+\S+|npx|bunx|pnpx|dlx|uvx|x|run|tool|--)\s)(\s*([A-Za-z_]\w*=\S*|-\S+)(\s+|$))*\s*(standard-version|commit-and-tag-version|release-it|semantic-release|bumpp|np|changelogen|lerna|auto|conventional-changelog(-cli)?|cz|commitizen|bump-my-version|bumpversion|bump2version|towncrier|release-plz|git-cliff|ng|nest|vue-cli-service|astro|svelte-kit|nuxi|sv|codemod|ts-migrate|wrangler|tsr|convex|orval|openapi-ts|typedoc|api-extractor|templ|mockery|swag|wire|gci|diesel|sea-orm-cli|typeorm|knex|sequelize(-cli)?|mikro-orm|supabase|sqlx|goose|migrate|atlas|pybabel|lingui|formatjs|i18next(-parser)?|tofu|terragrunt|wasm-pack|mkdocs|sphinx-build|goreleaser|rush|rushx|vue-tsc|redocly|svgr|gqlgen|ent|@redocly/cli|@svgr/cli|hatch\s+(fmt|version\s+[^-\s;&|]+)|python-semantic-release|@(angular|nestjs|lingui|formatjs|mikro-orm)/cli|@vue/cli-service|@sveltejs/kit|@tailwindcss/upgrade|@hey-api/openapi-ts|@microsoft/api-extractor|@next/codemod)(@\S*)?(\s|$|[;&|)])`,
      // Other languages' build tools and package managers: their build directories, lock files and vendored packages.
      String.raw`\b(mvn|mvnw|gradle|gradlew|tox|nox)\b|\b(bundle|dotnet)\s+(-\S+\s+)*(install|i|update|u|upgrade|require|r|remove|rm|reinstall|dump-autoload|dumpautoload|bump|add|lock|binstubs|build|test|run|publish|pack|restore|clean|watch)\b|\bcomposer\s+(-\S+\s+)*(?!(show|info|validate|outdated|licenses|search|depends|why|why-not|prohibits|check-platform-reqs|diagnose|help|list|audit|fund|suggests|home|browse|about|status|--version|-V|--help|-h)\b)[\w@-]|\bpip3?\b[^;&|\n]*\sinstall\b[^;&|\n]*\s(-e|--editable|-t|--target|--prefix|--root|--report|--log)\b|\bcmake\b(?![^;&|\n]*\s(-E|-P|--help|--version)\b)`,
      // A package manager's subcommand is its first word that is not an option (or an option's value).
      String.raw`\b(npm|pnpm|yarn|bun|corepack\s+(pnpm|yarn))(\s+-\S+(\s+[^-\s]\S*)?)*\s+(install|i|in|ins|inst|insta|instal|isnt|isnta|isntal|isntall|it|cit|sit|ic|install-test|install-clean|install-ci-test|ci|clean-install|add|a|remove|rm|r|uninstall|un|unlink|update|up|upgrade|udpate|dedupe|ddp|prune|rebuild|audit\s+fix|audit\b[^;&|\n]*--fix|version(\s+-\S+)*\s+[^-\s]\S*|pkg(\s+-\S+)*\s+(set|delete|fix)|init|import|workspace|workspaces|edit|(config|c)(\s+-\S+)*\s+(edit|set|delete|rm|fix)|set\s+[^-\s]\S*)\b`,
      String.raw`\byarn(\s+--?[\w=.-]+)*\s*($|[;&|)]|\d*[<>])`,
      String.raw`\bprisma\s+(-\S+\s+)*(format|generate|introspect|db\s+(pull|push|seed)|migrate\s+(dev|reset)|init)\b`,
      String.raw`\b(vitest|jest)\b[^;&|\n]*\s(-[a-zA-Z]*u\b|--(update|updateSnapshot|coverage|collectCoverage|outputFile)\b)|\b(ava|bun\s+test)\b[^;&|\n]*\s(-[a-zA-Z]*u\b|--update-snapshots\b)|\b(react-scripts\s+test|deno\s+test)\b[^;&|\n]*\s(-u|--update|--updateSnapshot)\b|\bdune\s+promote\b`,
      String.raw`\b(ncu|npm-check-updates)\b[^;&|\n]*\s(-[a-zA-Z]*u|--upgrade)\b|\bsort-package-json\b(?![^;&|\n]*\s(--check|-c)\b)`,
      // Compilers: they write what -o names, or a file of their own naming.
      String.raw`\b(cc|gcc|clang|c\+\+|g\+\+|clang\+\+|rustc|javac)(-[\d.]+)?\s|\btsc\b(?![^;&|\n]*\s--(noEmit|version|help|showConfig)\b)|\bgo(\s+-C\s*\S+)?\s+(build|generate)\b`,
      // Stylesheet compilers: the CSS they write, when they do not print it (shell-stylesheet-rules.ts).
      String.raw`\b(sass|dart-sass|node-sass|lessc|stylus|tailwindcss|postcss)\b`,
      // Bundlers and transpilers: what they are told to write, or a directory of their own (shell-bundler-rules.ts).
      String.raw`\besbuild\b[^;&|\n]*\s--(outfile|outdir|metafile)=|\b(rollup|babel|swc)\b[^;&|\n]*\s(-[a-zA-Z]*[ocd]|--(file|dir|config|out-file|out-dir))\b|\b(vite|next)\s+(\S+\s+)*(build|export)\b|\b(tsup|webpack|webpack-cli|parcel)\b`,
      // More fixers: oxlint, standard, xo, markdownlint --fix, codespell -w, ktlint -F; swiftformat, pint, dart format, php-cs-fixer fix, golangci-lint fmt.
      String.raw`\b(oxlint|standard|xo|markdownlint(-cli2)?|golangci-lint)\b[^;&|\n]*\s--fix\b|\bmarkdownlint\b[^;&|\n]*\s-[a-zA-Z]*f|\bcodespell\b[^;&|\n]*\s(-[a-zA-Z]*w|--write)|\bktlint\b[^;&|\n]*\s(-[a-zA-Z]*F|--format)\b|\b(swiftformat|pint)\b|\bdart\s+(format|fix)\b|\bphp-cs-fixer\b[^;&|\n]*\sfix\b|\bgolangci-lint\b[^;&|\n]*\sfmt\b`,
      // Other languages' lock files: dart's and flutter's pub, CocoaPods, swift package, mix deps.
      String.raw`\b(dart|flutter)\s+(\S+\s+)*pub\s+(\S+\s+)*(get|upgrade|downgrade|add|remove)\b|\bpod\s+(\S+\s+)*(install|update|deintegrate)\b|\bswift\s+(\S+\s+)*package\b|\bmix\s+deps\.(get|update|unlock)\b`,
      String.raw`\b(poetry|uv)\b[^;&|\n]*\s(add|remove|lock|update|install|sync|init)\b(?![^;&|\n]*\s--(check|locked|frozen)\b)|\b(poetry|uv)\s+(-\S+\s+)*version\s+([^-\s;&|]|(-\S+\s+)*--bump\b)`,
      // More lock files and manifests: corepack's own commands, yarn set version, npm shrinkwrap, deno's dependency commands and those that run a program, nix
      // flakes (and their templates), helm's chart dependencies and archives, pipenv, pdm, go work, expo install, uv and poetry export (shell-lock-rules.ts).
      String.raw`\bcorepack\s+(use|up|enable|disable|pack|prepare)\b|\byarn\b[^;&|\n]*\s(set\s+version|policies\s+set-version)\b|\bnpm\b[^;&|\n]*\sshrinkwrap\b|\bdeno\b[^;&|\n]*\s(add|remove|install|cache|outdated|run|serve|test|bench|check|compile)\b|\bdeno(\s+-\S+)*\s+[^-\s;&|]\S*\.[cm]?[jt]sx?(\s|$)|\bnix\b[^;&|\n]*\sflake\s+(update|lock|init|new)\b`,
      String.raw`\bhelm\b[^;&|\n]*\s((dependency|dep|dependencies)\s+(-\S+\s+)*(update|up|build)|package)\b|\b(pipenv|pdm)\b[^;&|\n]*\s(lock|install|update|upgrade|uninstall|add|remove)\b|\bgo(\s+-C\s*\S+)?\s+work\s+(sync|use|init|edit|vendor)\b|\bexpo\s+install\b|\b(uv|poetry)\b[^;&|\n]*\sexport\b`,
      // Codemods that rewrite the project's files (ast-grep -U and new, jscodeshift, comby -i, knip --fix), husky's and changesets' own files (shell-codemod-rules.ts).
      String.raw`\b(ast-grep|sg)\b[^;&|\n]*\s(-[a-zA-Z]*[Ui]|--update-all|--interactive)\b|\b(ast-grep|sg)\s+(-\S+\s+)*new\b|\bjscodeshift\b|\bcomby\b[^;&|\n]*\s-(i|in-place|r|review)\b|\bknip\b[^;&|\n]*\s--fix|(^|[\s;&|(/])(husky|changeset)(\s|$|[;&|)])`,
      // Pinned requirements (pip-compile, `uv pip compile -o`), snapshots and golden files a test run rewrites when told to.
      String.raw`\b(pip-compile|piptools)\b|\bpip\s+compile\b[^;&|\n]*\s(-[a-zA-Z]*o|--output-file)|\bplaywright\b[^;&|\n]*\s(-[a-zA-Z]*u|--update-snapshots)|\bplaywright\s+test\b|\bgo(\s+-C\s*\S+)?\s+test\b[^;&|\n]*\s--?((test\.)?update|coverprofile|cpuprofile|memprofile|blockprofile|mutexprofile|trace|o|outputdir)\b`,
      // (run-lines B) What a tool runs besides its own work, which its words do not show: Python on
      // flask shell's input, scrapy shell's -c code, deno repl's --eval, pylint's --init-hook, ncu
      // --doctor's install and test, mix cmd, npm explore, ansible-vault's password programs.
      String.raw`\bflask\b[^;&|\n]*\sshell\b|\bscrapy\s+(-\S+\s+)*shell\b[^;&|\n]*\s(-c|--code)\b|\bdeno\b[^;&|\n]*\srepl\b[^;&|\n]*\s--eval|\bpylint\b[^;&|\n]*\s--init-hook\b|\b(ncu|npm-check-updates)\b[^;&|\n]*\s--doctor\b|\bmix\s+(-\S+\s+)*cmd\b|\bnpm\s+(-\S+\s+)*explore\b|\bansible-vault\b[^;&|\n]*\s--(vault-password-file|vault-pass-file|new-vault-password-file|vault-id|new-vault-id)\b`,
    ].join("|"),
  ),
);
/**
 * A package's scripts (`npm run fmt`, `npm test`, `pnpm lint`, `yarn fmt`, `bun run x`, `start-test
 * gen 3000 test`), a Makefile's recipes, and a script run by its path (`./x.sh`, also through a runner the gate does
 * not know: `uv run ./x.sh`): read from disk in turn (shell-scripts.ts, shell-make.ts).
 */
const SCRIPT_USE = alternatives(/\b(npm|pnpm|yarn|bun)\b[^;&|\n]*\s(run|run-script|rum|urn|test|t|tst|start|stop|restart)\b|\bnpm(\s+-\S+)*\s+version\s+[^-\s]|\b(pnpm|yarn|bun)\s+[\w:-]|\b(make|gmake|bmake|remake|colormake|mingw32-make|just|rimraf|shx|run-s|run-p|npm-run-all|concurrently|start-server-and-test|start-test|server-test)\b|(^|[\s=])(\.{1,2}|~)\/|(^|[;&|({]\s*)(go-)?task(\s|$)/);
/** python-dotenv's `set` and `unset`, which rewrite its file (`dotenv -f .env set K V`: shell-wrappers.ts). */
const DOTENV_WRITES = /\bdotenv\s+(-\S+\s+)*((-f|--file|-q|--quote|-e|--export)\s+\S+\s+(-\S+\s+)*)*(set|unset)\b/;
/**
 * What pm2 starts: a command, a script, a line (`pm2 start npm -- run gen`, `pm2 start x.sh`, `pm2
 * start`: its ecosystem.config.js), or the apps of an ecosystem file (`pm2 reload apps.json`): shell-program-runs.ts.
 */
const PM2_STARTS = /\bpm2\s+(-\S+\s+)*((start|startOr\w+)(\s|$)|(restart|reload|gracefulReload)\s[^;&|\n]*\.(json|ya?ml|config\.[cm]?js))/;
/**
 * awk running a command of its own: `system(…)`, `print | "cmd"`, `"cmd" | getline` (read on the
 * raw text: the walk judges it any file); a program from a file or a variable, or a library or
 * extension it loads (`-i`, `-l`), which may write.
 */
const AWK_RUNS = /\b[gmn]?awk\b[^\n]*(\bsystem\s*\(|\|&?\s*("|getline\b))|\b[gmn]?awk\b[^;&|\n]*\s(-f|--file|-E|--exec|-e|--source|-i|--include|-l|--load|"?\$[A-Za-z_{(])/;
/** Words that run the command after them, with their options: the command is the first word after these. */
const BEFORE_COMMAND = /^(!|if|then|else|elif|do|while|until|time|sudo|doas|env|nice|nohup|exec|command|builtin|timeout|stdbuf|ionice|xargs|setsid|fakeroot|busybox|toybox|unshare|chrt|taskset|strace|ltrace|runuser|setpriv|prlimit|setarch|linux64|linux32|faketime|dbus-run-session|ssh-agent|valgrind|chroot|watch|capsh|gdb|lldb|pkexec|unbuffer|xvfb-run|sshpass|screen|systemd-run|numactl|cgexec|systemd-inhibit|caffeinate|flatpak-spawn|chpst|setlock|softlimit|envdir|envuidgid|setuidgid|pgrphack|fghack|firejail|sg|retry|-\S*|[A-Za-z_]\w*=\S*|\d+[smhd]?)$/;

/** Whether a command runs a program by its path (`./build.sh`, `scripts/fmt`, `/opt/x/run`): a script the walk reads if it is one. */
function runsPath(command: string): boolean {
  for (const segment of command.split(/[;&|\n(){}`]|\$\(/)) {
    const words = segment.trim().split(/\s+/);
    let at = 0;
    while (at < words.length - 1 && BEFORE_COMMAND.test(words[at] as string)) at++;
    // An option's value may stand where the command seems to (`sudo -u bob ./x`): the next word too.
    const candidates = [words[at], /^-/.test(words[at - 1] ?? "") ? words[at + 1] : undefined];
    if (candidates.some((word) => word?.replace(/^['"]|['"]$/g, "").includes("/"))) return true;
  }
  return false;
}

/**
 * Commands that run a program file they are given: interpreters, runners of one (`uv run`, `npx
 * tsx`, `nvm exec`), and tools that load one (`nodemon`, `coverage run`).
 */
// And the runners of languages the hook does not read (shell-unread-programs.ts), whose program
// files, when an agent may have written them, are judged as writing anything.
const INTERPRETER = /^(python[\d.]*|pypy3?|node(js)?|bun|tsx|ts-node(-esm|-script|-cwd|-transpile-only)?|zx|vite-node|jiti|babel-node|swc-node|esno|esr|sucrase-node|tsm|deno|ruby|perl|php|ipython|java|jshell|lua(jit)?[\d.]*|tclsh[\d.]*|wish[\d.]*|Rscript|julia|swift|kotlinc?|groovy|scala(-cli)?|elixir|runghc|runhaskell|ocaml|guile|racket|sbcl|dart|crystal)$/;
const LAUNCHER = /^(bunx|npx|pnpx|pnpm|yarn|npm|uv|uvx|poetry|pipenv|pdm|hatch|rye|pixi|mise|conda|nvm|nodemon|coverage|ts-node-dev|tsnd|node-dev|supervisor|forever|pm2|0x|scalene|pyinstrument|kernprof|memray)$/;
/** Commands whose words name programs and files as data (`grep -n node x.js`, `git log -- node x.js`): none runs them. */
const NAMES_PROGRAMS = /^(grep|egrep|fgrep|rg|ag|ack|echo|printf|cat|bat|less|more|head|tail|ls|man|info|tldr|which|whereis|type|file|wc|stat|diff|cmp|jq|git|gh|hg|svn|locate|pgrep|pkill|kill|killall|pidof|ps|lsof|fuser|strings|xxd|od|hexdump|sha1sum|sha256sum|md5sum|cksum|base64|test|\[|\[\[|true|false|export|declare|alias|history|read|set|unset)$/;
/** A program file run by its name alone (`uv run fix.py`): a plain word with a program's extension. */
const isProgramName = (word: string | undefined) => word !== undefined && /^[^-$][^$]*$/.test(word) && interpreterByExtension(word) !== undefined;
/** Whether a word (its last path part) is one of these commands, or a program file. */
const named = (pattern: RegExp) => (word: string | undefined) => word !== undefined && pattern.test(word.replace(/^.*\//, ""));
const runs = (word: string | undefined) => named(INTERPRETER)(word) || named(LAUNCHER)(word) || isProgramName(word);

/**
 * The programs in another language a command runs from files (`python3 fix.py`, `sudo node
 * ./gen.js`, `uv run python "$f"`, `npx tsx x.ts`), which the walk reads when an agent may have
 * written them (program-files.ts): the words after the command that may name one (`node gen` is
 * gen.js, `python3 -m fix` fix.py). Only where such a command is the command (`grep -n node x.js`
 * runs none). `fixed`: each is a plain word, and the command runs from where it starts (no `cd`,
 * no option before the command, no `-C`/`--cwd`, no NODE_OPTIONS), so the hook can look at the
 * files before it loads the parser (shell.ts).
 */
function programsRun(words: string): { words: string[]; fixed: boolean } | undefined {
  const found: string[] = [];
  let fixed = true;
  for (const segment of words.split(/[;&|\n(){}`]|\$\(/)) {
    const parts = segment.trim().split(/\s+/);
    if (/^(cd|pushd|popd)$/.test(parts[0] ?? "")) fixed = false;
    // node loads what NODE_OPTIONS' --require and --import name: the walk reads it.
    if (/(^|\s)NODE_OPTIONS=/.test(segment)) {
      fixed = false;
      found.push("NODE_OPTIONS");
    }
    let at = 0;
    for (; at < parts.length - 1 && BEFORE_COMMAND.test(parts[at] as string); at++) if ((parts[at] as string).startsWith("-")) fixed = false;
    // A wrapper's option value stands where the command seems to (`sudo -u bob python3 x.py`): the next word that runs one.
    if (at > 0 && !runs(parts[at])) {
      const next = parts.findIndex((word, index) => index > at && runs(word));
      if (next === -1) continue;
      at = next;
      fixed = false;
    }
    // A wrapper the gate does not know (`cross-env A=1 node x.js`, `bundle exec ruby x.rb`, `op run
    // -- python3 x.py`): an interpreter after it given a program file, or any word (`cross-env node
    // tool`: tool.js), or a launcher given one (`op run -- uv run x.py`); the walk reads what runs it.
    if (at === 0 && !runs(parts[0]) && !NAMES_PROGRAMS.test(parts[0] ?? "")) {
      const given = (index: number) => parts.slice(index + 1).some((word) => isProgramName(word) || (named(INTERPRETER)(parts[index]) && /^[^-$]/.test(word)) || (named(LAUNCHER)(parts[index]) && (named(INTERPRETER)(word) || /^(-m|--module)(=|$)/.test(word))));
      const next = parts.findIndex((word, index) => index > 0 && (named(INTERPRETER)(word) || named(LAUNCHER)(word)) && given(index));
      if (next === -1) continue;
      at = next;
      fixed = false;
    }
    if (!runs(parts[at])) continue;
    // A launcher runs a program file only through an interpreter or a file it is given (`npx tsx
    // x.ts`, `uv run fix.py`), or a module (`uv run -m fix`): `npm view react` runs none.
    if (named(LAUNCHER)(parts[at])) {
      const next = parts.findIndex((word, index) => index > at && (named(INTERPRETER)(word) || isProgramName(word) || /^(-m|--module)(=|$)/.test(word)));
      if (next === -1) continue;
      at = next;
    }
    const after = parts.slice(at).flatMap((word) => (word.startsWith("--module=") ? ["-m", word.slice(9)] : [word])); // (`uv run --module=fix`: the module)
    // A launcher's or wrapper's option before the program may run it elsewhere (`uv run --directory
    // d x.py`, `pnpm -C d`): the walk reads that; so it does an interpreter's own (`ruby -C d`).
    if (parts.slice(0, at).some((word) => word.startsWith("-")) || after.some((word) => /^-(C|-cwd|-chdir|-directory|-prefix|-dir)/.test(word))) fixed = false;
    const given = after.filter((word, index) => !word.startsWith("-") && (index > 0 || isProgramName(word)));
    if (given.some((word) => /[$`*?[\]{}~\\]/.test(word))) fixed = false;
    found.push(...given);
  }
  return found.length === 0 ? undefined : { words: found, fixed };
}

/** `2>&1`, `>&2`, `>/dev/null`: redirections that write no file. */
const HARMLESS_REDIRECTION = /\d*(>>?|&>>?|>\|)\s*\/dev\/null(?![\w./-])|\d*>&\s*(\d+|-)(?![\w./-])/g;

export function mayWrite(command: string): boolean {
  if (mayWriteOtherwise(command) || programsRun(shellWords(command)) !== undefined || programsRun(flattened(command)) !== undefined) return true;
  const unredirected = withoutInputRedirections(command);
  if (unredirected !== command && mayWrite(unredirected)) return true;
  // `perl5.36.0 -pi …`, `vim.basic -es …`: a program under another of its names (program-files.ts).
  const named = withProgramAliases(command);
  return named !== command && mayWrite(named);
}

/**
 * `rm<<<x u.ts`, `git<x checkout u.ts`: an input redirection glued to a command's name, or between
 * it and its words, hides them from the patterns above; bash reads them all the same. The text
 * with every input redirection (`<`, `<<<`, `<>`, `<&`, and its word) made a space; not a heredoc
 * (`<<EOF`) or `<(…)`. Only ever more commands parsed, never fewer.
 */
function withoutInputRedirections(command: string): string {
  return command.replace(/(^|[^<])\d*(?:<<<|<>|<&|<)(?![(<])\s*(?:"[^"]*"|'[^']*'|[^\s;&|()<>]+)/g, "$1 ");
}

/**
 * `python3 manage.py test`, `node scripts/build.js | tail`: a command that may write only through
 * programs it runs from files, each named by a plain word from where the command starts: those
 * words, for the hook to look at before it loads the parser (shell.ts). Otherwise undefined.
 */
export function programsHere(command: string): string[] | undefined {
  // Quotes or escapes (`python3 "my fix.py"`): words the split above may not give whole; the walk reads them.
  if (/["'\\]/.test(command) || mayWriteOtherwise(command)) return undefined;
  const run = programsRun(shellWords(command));
  return run?.fixed ? run.words : undefined;
}

/**
 * Text the patterns above cannot answer for in time: each scans from every mention of a command
 * (`time`, `sort`, `awk`, `python`) to the end of its line, so a long line of prose costs the square
 * of its length (80 KB: 9 s, past the agent's wait for the hook). Past GATE_LINE on one line or
 * GATE_TEXT in all (64 KB of 4 KB lines: about 0.1 s), the walk reads the command instead.
 */
function pastGate(command: string): boolean {
  if (command.length > GATE_TEXT) return true;
  const text = command.replace(/\\\n/g, "  "); // the lines the patterns read: `\<newline>` joins two
  for (let start = 0; start < text.length; ) {
    const end = text.indexOf("\n", start);
    if ((end === -1 ? text.length : end) - start > GATE_LINE) return true;
    if (end === -1) break;
    start = end + 1;
  }
  return false;
}
const GATE_TEXT = 65_536;
const GATE_LINE = 4_096;

/**
 * `go run .`, `zig run x.zig`, `nim r x.nim`, `stack script x.hs`: a package's sources, which an agent may have written
 * (shell-unread-programs.ts); tmux and screen: keys typed into a session (`send-keys "$cmd"`,
 * `-X stuff`), or a command run in one, which their launchers read (shell-launchers.ts); `lerna
 * exec`/`run`, turbo, nx, `deno task`, `npm pack` and `publish`: a command, a package's scripts or
 * a task (shell-wrappers.ts, shell-scripts.ts).
 */
const BUILDS_AND_RUNS = alternatives(/(^|[\s;&|(`])((go|zig)(\s+-C\s+\S+|\s+-\S+)*\s+run|nim(\s+-\S+)*\s+(r|run|e)|stack(\s+-\S+)*\s+(script|runghc|runhaskell)|tmux|screen|lerna\b[^;&|\n]*\s(exec|run)|turbo|nx|ninja|samu|deno\s+(-\S+\s+)*task|(npm|pnpm|yarn)(\s+-\S+)*\s+(pack|publish))(\s|$)/);

/**
 * Database clients and dumps, sdiff, assemblers and linkers, downloaders, jar, ImageMagick, ffmpeg,
 * m4, and copies from a container or a bucket (shell-file-rules.ts).
 */
const OUTPUT_TOOLS =
  alternatives(/\b(psql|pg_dump|pg_dumpall|mysqldump|mysql|mariadb|sdiff|aria2c|jar|convert|magick|mogrify|montage|composite|ffmpeg|ptar|dpkg-deb|ranlib|pod2(text|man|html)|msg(fmt|merge|init|cat|uniq|attrib|conv|en|comm|unfmt|grep|exec|filter)|xgettext|ptx|cscope|m4)\b|(^|[;&|(`\s])(cpp|c99|c89)(\s|$)|(^|[;&|(`\s])ar\s+(-\S+\s+)*(?=-?[a-zA-Z]*[xrqdms])-?[a-zA-Z]+\s+[^\s;&|]|(^|[;&|(`\s])(as|ld)\s[^;&|\n]*-o|(^|[;&|(`\s])(https?|xhs?)(\s[^;&|\n]*)?\s(-[a-zA-Z]*[od]|--(output|download))\b|\bkubectl\s+(\S+\s+)*cp\b|\baws\s+(\S+\s+)*s3\s+(cp|mv|sync)\b|\baws\s+(\S+\s+)*s3api\s+get-object/);

/**
 * git given a setting or variable that names a command it runs (`-c core.fsmonitor=…`, `-c
 * credential.helper='!…'`, GIT_SSH_COMMAND, GIT_PAGER), an include of another config file, or an
 * `ext::` URL, a directory it runs its own programs from (`--exec-path=`), or a subcommand's option that names one (GIT_OPTION_COMMAND): read by the walk
 * (shell-git-commands.ts). `PAGER=cat` and the like run nothing.
 */
const GIT_CONFIG_COMMAND =
  alternatives(/\bgit\b[^;&|\n]*\s(-c\s*|--config-env[=\s]\s*)(core\.(fsmonitor|sshcommand|pager|askpass|gitproxy|alternaterefscommand)|credential\.|diff\.|merge\.|filter\.|pager\.|gpg\.|difftool\.|mergetool\.|man\.|browser\.|interactive\.|sendemail\.|remote\.|uploadpack\.|submodule\.|trailer\.|include|url\.|protocol\.|imap\.|instaweb\.)|\bgit\b[^\n]*ext::|\bgit\b[^;&|\n]*\s--exec-path=/i);
/**
 * A git subcommand's option that names a command it runs (git takes a long option by any prefix
 * that names it alone: `--upl`, `--rece`). One scan from `git` to the option, the subcommand
 * looked for ahead of it (two scans chained took a 60 KB line of `git fetch` seconds); case kept,
 * so grep's `-o` and fetch's `--unshallow` are not taken for `-O` and `--upload-pack`.
 */
const GIT_OPTION_COMMAND =
  alternatives(/\bgit\b(?=[^;&|\n]*\s(ls-remote|fetch|fetch-pack|pull|clone|push|send-pack|archive|send-email)\b)[^;&|\n]*\s--(upl|rece|e|sendm|to-c|cc-c|header-c)|\bgit\b(?=[^;&|\n]*\sclone\b)[^;&|\n]*\s-[a-zA-Z]*u|\bgit\b(?=[^;&|\n]*\sgrep\b)[^;&|\n]*\s(-[a-zA-Z]*O|--op)|\bgit\b(?=[^;&|\n]*\sinstaweb\b)[^;&|\n]*\s(-[a-zA-Z]*d|--h)|\bgit\b(?=[^;&|\n]*\sdifftool\b)[^;&|\n]*\s(-[a-zA-Z]*[xt]|--(ex|to)|-["'$`])/);
/** The variables naming a command git runs, set to one, or a config file it reads (with git anywhere in the command). */
const GIT_COMMAND_VARIABLE = alternatives(/(^|[\s;&|(])(GIT_SSH_COMMAND|GIT_SSH|GIT_PAGER|PAGER|GIT_ASKPASS|SSH_ASKPASS|GIT_EXTERNAL_DIFF|GIT_PROXY_COMMAND|GIT_CONFIG_PARAMETERS|GIT_CONFIG_COUNT|GIT_CONFIG_KEY_\d+|GIT_CONFIG_VALUE_\d+|GIT_ALLOW_PROTOCOL|GIT_CONFIG_GLOBAL|GIT_CONFIG_SYSTEM|GIT_EXEC_PATH|HOME|XDG_CONFIG_HOME)=(?!(cat|less|more|true|\/dev\/null)?(\s|$|;))/);

/**
 * A variable naming the editor a command runs on a file of its own (`git commit`, `crontab -e`:
 * shell-editors.ts), set by the command to a command line other than a plain editor's:
 * `EDITOR="$x" git commit`, `VISUAL=./fix.sh crontab -e`; and less's preprocessor (`LESSOPEN=`).
 * The walk reads that line.
 */
const EDITOR_VARIABLE = /(^|[\s;&|(])(GIT_EDITOR|GIT_SEQUENCE_EDITOR|VISUAL|EDITOR|KUBE_EDITOR|SUDO_EDITOR|SYSTEMD_EDITOR|LESSOPEN|LESSCLOSE)=(?!(vi|vim|nvim|nano|emacs|code|true|cat)?(\s|$|;))/;

/** git's trace variables set to a file or a value the text does not fix (`GIT_TRACE=/tmp/t.log git status`). */
const GIT_TRACE_FILE = /(^|[\s;&|(])GIT_TRACE\w*=["']?[/$`~]/;

/** An interpreter's options variable set to a value the text does not fix (`NODE_OPTIONS="$x" npm test`): shell-program-runs.ts unfixedCodeOptions. */
const UNFIXED_CODE_OPTIONS = /(^|[\s;&|(])(NODE_OPTIONS|PERL5OPT|RUBYOPT|BASH_ENV|ZDOTDIR|PHPRC|PHP_INI_SCAN_DIR|R_PROFILE_USER|R_PROFILE)=("[^"]*)?[$`]/;

/**
 * Code an interpreter loads from a file the command names, before its program or beside it
 * (shell-preloads.ts): a variable that has it load some (`NODE_OPTIONS='-r ./w.js' npm test`,
 * RUBYOPT, PERL5OPT, a load path, PYTHONPATH's sitecustomize.py, PHPRC's php.ini, R's profile),
 * ruby's `-r`, php's `-c`, `-d` and `-z` (perl is WRITING_COMMAND's).
 */
const LOADS_CODE = alternatives(/(^|[\s;&|(])(NODE_OPTIONS|RUBYOPT|RUBYLIB|PERL5OPT|PERL5LIB|PERLLIB|PYTHONPATH|PHPRC|PHP_INI_SCAN_DIR|R_PROFILE_USER|R_PROFILE)=|\bruby[\d.]*\b[^;&|\n]*\s-[a-zA-Z]*r|\bphp[\d.]*\b[^;&|\n]*\s(-[a-zA-Z]*[cdz]|--(php-ini|define|zend-extension))/);

/**
 * A word that starts with a dash and a part the text does not fix (`sort -"$x" a`, `sort -u"$x"
 * a`, `--output"$x"`): an option the text does not name, which may be one that writes (`-o FILE`):
 * the walk reads the command's options (shell-options.ts optionGuesses).
 */
const UNNAMED_OPTION = /(^|\s)--?[\w-]*[$`]/;

/** git with a word the text does not fix where its subcommand is (`git "$x" checkout -- f`, `git --no-pager "$x"`): any git command. */
const GIT_UNNAMED = /\bgit(\s+(-[Cc]\s*\S+|--(git-dir|work-tree|namespace|config-env)(\s+|=)\S+|-(?!([Cc]|-(git-dir|work-tree|namespace|config-env))(\s|$))\S+))*\s+[$`]/;

/** Whether the command's text may write, programs it runs from files aside (programsRun). */
function mayWriteOtherwise(command: string): boolean {
  if (pastGate(command)) return true;
  const words = shellWords(command);
  if (GIT_CONFIG_COMMAND.test(words) || GIT_OPTION_COMMAND.test(words) || (GIT_COMMAND_VARIABLE.test(words) && /\bgit\b/.test(words)) || EDITOR_VARIABLE.test(words) || UNFIXED_CODE_OPTIONS.test(command) || LOADS_CODE.test(words) || GIT_TRACE_FILE.test(command)) return true;
  if (writesItself(command, words) || SCRIPT_USE.test(words) || DOTENV_WRITES.test(words) || PM2_STARTS.test(words) || runsPath(words) || namesUnfixed(words) || UNNAMED_OPTION.test(words) || GIT_UNNAMED.test(words) || AWK_RUNS.test(command) || BUILDS_AND_RUNS.test(words) || OUTPUT_TOOLS.test(words)) return true;
  const flat = flattened(command);
  return flat !== command && (writesItself(flat, flat) || SCRIPT_USE.test(flat) || runsPath(flat));
}

/**
 * `"r"m f`, `r\m f`, `c''p a b`, `$'rm' f`, `r\<newline>m f`: bash runs rm all the same. The
 * text once more with quotes, backslashes and line continuations gone (it may join what was
 * apart, `echo 'a'rm`: only ever more commands parsed, never fewer).
 */
function flattened(command: string): string {
  return command.replace(/\\\n/g, "").replace(/\$(?=')/g, "").replace(/["'\\]/g, "");
}

/**
 * A command whose name is no plain word: `$c f`, `"$c" f`, `${c} f`, `"${c[@]}"`, `{rm,f}`, `` `c` f ``,
 * `r{m,} f`. The text alone cannot say what runs: the walk decides (shell-walk.ts). And `script`,
 * which writes its typescript whatever its options (a word too common to find anywhere else).
 */
function namesUnfixed(words: string): boolean {
  if (/(^|[;&|\n({]|\$\()\s*`/.test(words)) return true; // `` `cat cmd` ``: a command's output run as one
  const unfixed = (word: string | undefined) => /^\$|\{[^{}\s]*(,|\.\.)[^{}\s]*\}/.test(word ?? "") || word === "script";
  for (const segment of words.split(/[;&|\n()`]|\$\(/)) {
    const parts = segment.trim().split(/\s+/);
    const commandFrom = (from: number) => {
      let at = from;
      while (at < parts.length - 1 && (BEFORE_COMMAND.test(parts[at] as string) || parts[at] === "{" || parts[at] === "}")) at++;
      return at;
    };
    const at = commandFrom(0);
    if (unfixed(parts[at])) return true;
    // An option's value may stand where the command seems to (`sudo -u bob "$cmd"`): the command may come after it.
    if (at > 0 && /^-/.test(parts[at - 1] as string) && unfixed(parts[commandFrom(at + 1)])) return true;
  }
  // A wrapper or runner given words the text does not fix (`gosu root "$cmd"`, `uv run $cmd`,
  // `scl enable coll "$cmd"`, `setarch x86_64 $(cat cmd)`): the command it runs may be among them,
  // after its own positional words and subcommands, which the text alone cannot tell apart.
  for (const segment of words.split(/[;&|\n]/)) {
    const parts = segment.trim().split(/\s+/);
    const runner = parts.findIndex((word) => RUNS_COMMAND.test(word.replace(/^.*[/(`{]/, "")));
    if (runner !== -1 && parts.slice(runner + 1).some((word) => /[$`]/.test(word))) return true;
  }
  return false;
}

/**
 * The wrappers and runners that run a command after their own words: the walk's (WRAPPERS in
 * shell-runners.ts, kept the same by a test; and cross-env-shell, shell-wrappers.ts), which the gate does not load.
 */
export const RUNS_COMMAND =
  alternatives(/^(sudo|doas|env|go|gtimeout|trickle|catatonit|with-contenv|s6-setuidgid|pnpx|nice|nohup|time|command|exec|builtin|stdbuf|timeout|ionice|chronic|coproc|setsid|flock|chrt|taskset|unshare|fakeroot|busybox|toybox|setpriv|prlimit|setarch|linux64|linux32|faketime|dbus-run-session|ssh-agent|valgrind|chroot|numactl|cgexec|systemd-inhibit|caffeinate|flatpak-spawn|chpst|setlock|softlimit|envdir|envuidgid|setuidgid|pgrphack|fghack|pkexec|unbuffer|xvfb-run|sshpass|bundle|conda|mamba|micromamba|mise|op|doppler|direnv|nodemon|nix-shell|nix|eatmydata|gosu|su-exec|run0|tini|dumb-init|daemonize|stack|cabal|dune|opam|aws-vault|infisical|proot|cpulimit|ifne|dotenvx|devbox|scl|strace|ltrace|script|npx|bunx|uvx|corepack|cross-env|cross-env-shell|dotenv|shx|ccache|sccache|distcc|pipx|npm|pnpm|yarn|bun|uv|poetry|pipenv|pdm|hatch|rye|pyenv|rbenv|nodenv|goenv|plenv|jenv|asdf|volta|fnm|pixi)$/);

/**
 * The command as the shell would split it: line continuations joined, quotes gone (`git "checkout"
 * x`), `|`, `;`, `&` inside quotes not taken for the end of a command; an escaped character outside
 * them (`\"`) is one, and opens no quote. A quote left open runs to the end (bash would not run the
 * command at all): looked for again from each later quote, a line of `"\"\"…` would cost the
 * square of its length.
 */
function shellWords(command: string): string {
  return command
    .replace(/\\\n/g, " ")
    .replace(/\\[\s\S]|'[^']*'|"((?:\\[\s\S]|[^"\\])*)("|\\?$)/g, (quoted, inner?: string, close?: string) =>
      quoted.startsWith("\\") ? quoted : (inner === undefined ? quoted.slice(1, -1) : inner + (close === '"' ? "" : close)).replace(/[|;&]/g, " "),
    )
    .replace(/(\b(python[\d.]*|pypy3?)\b[^;&|\n]*\s-m)(?=[A-Za-z_])/g, "$1 ") // python -mblack
    .replace(VERSIONED, "$1$2@$3 $2"); // `npx prisma@6 generate` is read as `prisma generate` too
}

/** A package named with its version, as npx, bunx, pnpm dlx and yarn dlx take it: `prisma@6`, `@biomejs/biome@1.9.4`. */
const VERSIONED = /(^|\s)(@?[A-Za-z][\w.-]*(?:\/[\w.-]+)?)@([\w.^~<>=*-]+)(?=\s|$)/g;

/** deno's, bun's and uv's program on stdin (`deno run -A -`, `bun run -`, `uv run -`: shell-program-runs.ts stdinProgram). */
const STDIN_PROGRAM = /\b(deno|bun|uv)\b[^;&|\n]*\s(-|\/dev\/stdin)(?=\s|$|[;&|)<])/;

/**
 * Languages the hook does not read, run on code given inline or on their input (`Rscript -e`,
 * `tclsh <<<'…'`, `echo '…' | lua`, `julia -e`: shell-unread-programs.ts runsUnreadInline), or on
 * a program file (`escript x.erl`: RUNNERS there); emacs is WRITING_COMMAND's.
 */
const UNREAD_INLINE = alternatives(/(^|[\s;&|(`\/])((Rscript|lua|luajit|tclsh|wish|expect|julia|elixir|groovy|scala|kotlin|racket|guile|sbcl|jshell|ocaml|swift|erl|osascript|raku|perl6|bb|clojure|clj|ghc|ghci|kotlinc|octave|octave-cli|gnuplot|dc|m4|janet|fennel|hy|csi|escript|swipl|coffee)[\d.]*|R)(?=\s|$|[;&|)<])/);

/** Whether the command's own text may write, scripts on disk aside. */
function writesItself(command: string, words: string): boolean {
  return command.replace(HARMLESS_REDIRECTION, "").includes(">") || WRITING_COMMAND.test(command) || WRITING_USE.test(words) || TOOL_USE.test(words) || GIT_ALIAS_USE.test(words) || STDIN_PROGRAM.test(words) || UNREAD_INLINE.test(words);
}

/**
 * `npm test`, `npm run lint 2>&1 | tail -20`, `pnpm lint`: a package's script run alone, with no
 * arguments, whose text (and its `pre` and `post` scripts', in the nearest package.json up from
 * cwd) the gate passes as writing nothing; then the parser need not load for it either. Anything
 * else is read whole by the walk.
 */
const PLAIN_RUN = /^\s*(npm|pnpm|yarn|bun)\s+(?:(run|run-script)\s+)?([\w:.-]+)\s*(?:2>&1\s*)?(\|[^|;&\n][^;&\n]*)?$/;

/** git with a command that runs hooks (git-hooks.ts). */
const GIT_HOOKED = new RegExp(String.raw`\bgit(?:\s+(?:-[Cc]\s*\S+|--(?:git-dir|work-tree|namespace)(?:\s+|=)\S+|-\S+))*\s+(${HOOKED_COMMANDS.join("|")})(?![\w-])`, "g");

/**
 * `git commit`, `git push`, …: whether the repository has a hook the command runs (a formatter in
 * pre-commit writes files as a redirection does). Another repository than cwd's (`cd`, `-C`,
 * `--git-dir`), or config of the command's own: the walk asks git.
 */
export function runsGitHooks(command: string, cwd: string, environment: Record<string, string | undefined>): boolean {
  if (pastGate(command)) return false; // the walk reads it whole anyway
  const words = shellWords(command);
  const commands = [...words.matchAll(GIT_HOOKED)].map((match) => match[1] as string);
  // commitizen (`git cz`, `cz`, `npx git-cz`) runs git commit.
  if (/\bgit\s+cz\b|(^|[\s;&|(/])(git-cz|cz)(\s|$)/.test(words)) commands.push("commit");
  if (commands.length === 0) return false;
  if (/(^|[\s;&|(])(cd|pushd|popd)(\s|$)|\bgit\b[^;&|\n]*\s(-C|-c|--git-dir|--work-tree|--config-env)(?![\w-])|\bGIT_\w+=/.test(words)) return true;
  // Hooks set up before it in the same command (`git config core.hooksPath x && git commit`, a hook written or made runnable).
  if (/\bgit\b[^;&|\n]*\sconfig(?![\w-])|hooksPath|\.git\/hooks|\.husky\b/i.test(words)) return true;
  return mayRunHooks(cwd, commands.flatMap((sub) => hooksRun(sub)), environment);
}

export function quietPackageRun(command: string, cwd: string): boolean {
  const match = PLAIN_RUN.exec(command);
  // What it is piped to is judged whole (`| ./clean.sh` runs a script); `||` and a new line are other commands: not this case.
  if (!match || mayWrite(match[4] ?? "")) return false;
  const [, manager, run, name] = match as unknown as [string, string, string | undefined, string];
  // npm by its own names (not `restart`, which without a script of its own runs stop and start).
  if (manager === "npm" && run === undefined && (!Object.hasOwn(NPM_SCRIPTS, name) || name === "restart")) return false;
  if (manager === "bun" && run === undefined) return false; // `bun x.ts` runs a file
  const script = manager === "npm" && run === undefined ? (NPM_SCRIPTS[name] as string) : name;
  const directory = nearestPackage(cwd);
  if (directory === undefined) return false;
  // Node options the project's .npmrc gives the scripts' node (`node-options=--require ./w.js`): the walk reads what they preload.
  if ((manager === "npm" || manager === "pnpm") && npmrcNodeOptions(directory)) return false;
  // And bun's bunfig.toml `preload` where it runs.
  if (manager === "bun" && bunfigPreload(cwd)) return false;
  const scripts = packageScripts(directory);
  // Not a script of the package: a command of the manager's own, or (yarn, pnpm and bun, also
  // through `run`) a program of node_modules/.bin.
  if (manager !== "npm" && !Object.hasOwn(scripts, script)) return false;
  return aroundScript(script).every((key) => !Object.hasOwn(scripts, key) || (typeof scripts[key] === "string" && !mayWrite(scripts[key] as string)));
}

/** Whether a package's .npmrc sets node options (for the node its scripts run). */
function npmrcNodeOptions(directory: string): boolean {
  try {
    return /^[ \t]*node-options[ \t]*=/m.test(readFileSync(join(directory, ".npmrc"), "utf8"));
  } catch {
    return false;
  }
}

/** Whether bun's config where it runs preloads code (`preload = ["./setup.ts"]`). */
function bunfigPreload(directory: string): boolean {
  try {
    return /^[ \t]*preload[ \t]*=/m.test(readFileSync(join(directory, "bunfig.toml"), "utf8"));
  } catch {
    return false;
  }
}

/** The gate's regexes tried as alternatives with their words (alternatives): for the test that checks each against its whole. */
export const SPLIT_REGEXES = { WRITING_COMMAND, WRITING_USE, GIT_ALIAS_USE, TOOL_USE, SCRIPT_USE, BUILDS_AND_RUNS, OUTPUT_TOOLS, GIT_CONFIG_COMMAND, GIT_OPTION_COMMAND, GIT_COMMAND_VARIABLE, LOADS_CODE, RUNS_COMMAND, UNREAD_INLINE };
