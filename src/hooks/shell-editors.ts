// Commands that run an editor on a file of their own: `git commit` with no message, `git rebase
// -i`, `git tag -a`, `crontab -e`, `visudo`, `vipw`, `sudoedit`, `kubectl edit`, `systemctl edit`.
// The editor is a command line the environment names (GIT_EDITOR, VISUAL, EDITOR…: the first set
// of the program's own list), else one on the terminal (vi, nano: each program's default is one),
// run with the file as its last word. The walk reads that line in turn, the file in temp space: so
// `GIT_SEQUENCE_EDITOR="sed -i …" git rebase -i` writes its todo list alone, `GIT_EDITOR=true git
// commit` nothing, `EDITOR=./fix.sh crontab -e` what fix.sh writes, and vi, given a terminal,
// whatever is typed into it (shell-terminal.ts). git's core.editor in its config files is not read:
// VISUAL and EDITOR stand in for it.
import { guessedArguments, readOptions, type Reading, type Syntax, valuedLong } from "./shell-options.js";
import type { Nested } from "./shell-runners.js";
import { gitSubcommandAt } from "./shell-terminal.js";
import { add, type Environment, UNKNOWABLE, type Walk } from "./shell-words.js";

type Args = Array<string | undefined>;
const has = (args: Args, ...options: string[]) => args.some((arg) => arg !== undefined && options.includes(arg));

/** The variables each program takes its editor from, in the order it asks them; and whether a call of it, with these arguments, runs one. */
const LAUNCHERS: Record<string, { variables: string[]; edits: (args: Args, text: (at: number) => string | undefined) => boolean }> = {
  // (`crontab -"$x"`: a word whose option letters the text does not fix may be -e.)
  crontab: {
    variables: ["VISUAL", "EDITOR"],
    edits: (args, text) => {
      const reading = readOptions(args, { short: "u:" }, 0, text);
      return reading.has("e") || reading.unnamed.length > 0;
    },
  },
  visudo: { variables: ["SUDO_EDITOR", "VISUAL", "EDITOR"], edits: (args) => !has(args, "-c", "--check", "-h", "--help", "-V", "--version") },
  vipw: { variables: ["VISUAL", "EDITOR"], edits: (args) => !has(args, "-h", "--help") },
  vigr: { variables: ["VISUAL", "EDITOR"], edits: (args) => !has(args, "-h", "--help") },
  sudoedit: { variables: ["SUDO_EDITOR", "VISUAL", "EDITOR"], edits: (args) => !has(args, "-h", "--help", "-V", "--version", "-l", "--list") },
  kubectl: { variables: ["KUBE_EDITOR", "EDITOR"], edits: (args) => has(args, "edit") && !has(args, "-h", "--help") },
  oc: { variables: ["KUBE_EDITOR", "EDITOR"], edits: (args) => has(args, "edit") && !has(args, "-h", "--help") },
  systemctl: { variables: ["SYSTEMD_EDITOR", "EDITOR", "VISUAL"], edits: (args) => has(args, "edit") && !has(args, "--stdin", "-h", "--help") },
};

/** git's editor, and its sequence editor (`rebase -i`'s todo list), as git asks for them: a `-c` setting stands where its config's would. */
const GIT_EDITOR = ["GIT_EDITOR", "core.editor", "VISUAL", "EDITOR"];
const GIT_SEQUENCE_EDITOR = ["GIT_SEQUENCE_EDITOR", "sequence.editor", ...GIT_EDITOR];

/**
 * git's subcommands that may run its editor, with the options that decide whether they do. Only
 * those certain to, the work tree aside: not `merge` or `pull` without `-e`, which open one only
 * for a merge commit; `revert`, which opens one by default, only given a terminal (git asks
 * isatty), and `commit` when no message is given (`-m`, `-F`, `-C`, `--no-edit`, a plain
 * `--fixup`), or `-e` or `-c` asks for it anyway.
 */
const GIT_EDITS: Record<string, { syntax: Syntax; edits: (reading: Reading, terminal: boolean, operand: string | undefined) => string[] | undefined }> = {
  commit: {
    syntax: { short: "m:F:C:c:t:", long: { message: "m", file: "F", "reuse-message": "C", "reedit-message": "c", template: "t", edit: "e", fixup: ":", squash: ":", author: ":", date: ":", cleanup: ":", trailer: ":", "pathspec-from-file": ":", "dry-run": "" } },
    edits: (reading) => {
      const plainFixup = reading.has("fixup") && reading.values("fixup").every((value) => value !== undefined && !/^(amend|reword):/.test(value));
      const given = reading.has("m", "F", "C", "--no-edit", "dry-run") || plainFixup;
      return reading.has("e", "c") || !given ? GIT_EDITOR : undefined;
    },
  },
  tag: {
    syntax: { short: "m:F:u:n::", long: { message: "m", file: "F", "local-user": "u", annotate: "a", sign: "s", edit: "e", list: "l", delete: "d", verify: "v", ...valuedLong("contains no-contains points-at merged no-merged sort format cleanup") } },
    edits: (reading) => {
      if (reading.has("l", "d", "v")) return undefined;
      const annotated = reading.has("a", "s", "u", "m", "F");
      return annotated && (reading.has("e") || !reading.has("m", "F")) ? GIT_EDITOR : undefined;
    },
  },
  // `git notes [--ref r] edit`, `add` or `append` with no message.
  notes: {
    syntax: { short: "m:F:c:C:", long: { message: "m", file: "F", "reedit-message": "c", "reuse-message": "C", edit: "e", ref: ":" } },
    edits: (reading, _, operand) => (operand === "edit" || (/^(add|append)$/.test(operand ?? "") && (reading.has("e", "c") || !reading.has("m", "F", "C"))) ? GIT_EDITOR : undefined),
  },
  rebase: { syntax: { short: "s:X:x:", long: { interactive: "i", "edit-todo": "", strategy: "s", "strategy-option": "X", exec: "x", onto: ":" } }, edits: (reading) => (reading.has("i", "edit-todo") ? GIT_SEQUENCE_EDITOR : undefined) },
  config: { syntax: { short: "f:", long: { file: "f", edit: "e", blob: ":", type: ":", default: ":", comment: ":" } }, edits: (reading, _, operand) => (reading.has("e") || operand === "edit" ? GIT_EDITOR : undefined) },
  branch: { syntax: {}, edits: (reading) => (reading.has("--edit-description") ? GIT_EDITOR : undefined) },
  merge: { syntax: { short: "m:s:X:F:", long: { message: "m", file: "F", edit: "e", continue: "", strategy: "s", "strategy-option": "X", "into-name": ":" } }, edits: (reading) => (reading.has("e", "continue") ? GIT_EDITOR : undefined) },
  pull: { syntax: { short: "s:X:", long: { edit: "e", strategy: "s", "strategy-option": "X" } }, edits: (reading) => (reading.has("e") ? GIT_EDITOR : undefined) },
  "cherry-pick": { syntax: { short: "m:X:", long: { edit: "e", mainline: "m", "strategy-option": "X", strategy: ":" } }, edits: (reading) => (reading.has("e") ? GIT_EDITOR : undefined) },
  revert: {
    syntax: { short: "m:X:", long: { edit: "e", "no-edit": "", "no-commit": "n", mainline: "m", "strategy-option": "X", strategy: ":", continue: "", abort: "", quit: "", skip: "" } },
    edits: (reading, terminal) => (reading.has("e") || (terminal && !reading.has("no-edit", "n", "continue", "abort", "quit", "skip")) ? GIT_EDITOR : undefined),
  },
  add: { syntax: { long: { edit: "e", "pathspec-from-file": ":", chmod: ":" } }, edits: (reading) => (reading.has("e") ? GIT_EDITOR : undefined) },
};

/** The variables (and, for git, `-c` settings) naming the editor this call runs; undefined when it runs none. */
function editorSources(name: string, args: Args, text: (at: number) => string | undefined, terminal: boolean): { sources: string[]; settings: Map<string, string | undefined> } | undefined {
  if (name !== "git") {
    const launcher = Object.hasOwn(LAUNCHERS, name) ? LAUNCHERS[name] : undefined;
    return launcher?.edits(args, text) ? { sources: launcher.variables, settings: new Map() } : undefined;
  }
  const at = gitSubcommandAt(args);
  const sub = args[at];
  const rule = sub !== undefined && Object.hasOwn(GIT_EDITS, sub) ? GIT_EDITS[sub] : undefined;
  if (rule === undefined) return undefined;
  const reading = readOptions(args, rule.syntax, at + 1, text);
  // A word that may be an option the text does not name (`git commit -m x -"$y"`) may be the one that opens the editor (`-e`).
  const readings = [reading, ...guessedArguments(args, rule.syntax, reading, text).map((guess) => readOptions(guess.args, rule.syntax, at + 1, guess.text))];
  const sources = readings
    .filter((each) => !each.has("h", "--help"))
    .map((each) => rule.edits(each, terminal, each.operands[0] === undefined ? undefined : args[each.operands[0]]))
    .find((edits) => edits !== undefined);
  if (sources === undefined) return undefined;
  // `git -c core.editor=true commit`: the last setting of a key is git's (one the text does not fix is taken for another key's).
  const settings = new Map<string, string | undefined>();
  for (let index = 0; index < at; index++) {
    const setting = args[index] === "-c" ? args[index + 1] : undefined;
    if (setting !== undefined && /^(core|sequence)\.editor=/i.test(setting)) settings.set(setting.slice(0, setting.indexOf("=")).toLowerCase(), setting.slice(setting.indexOf("=") + 1));
  }
  return { sources, settings };
}

/** The variable that stands, in the editor's command line, for the file it edits: set to `$(mktemp)`, temp space to the walk. */
const EDITED = "__claims_edited";

/**
 * An editor the command runs on a file of its own (`git commit` with no message, `crontab -e`):
 * its command line, the first of its sources the environment sets (vi when none is), read in turn
 * with a file in temp space as its last word. One the text does not fix (`GIT_EDITOR="$e"`) could
 * write any file.
 */
export function readEditor(name: string, args: Args, text: (at: number) => string | undefined, here: Walk, nested: Nested[]): void {
  const found = editorSources(name, args, text, here.shared.terminal === true);
  if (found === undefined) return;
  const environment: Environment = here.environment;
  let editor: string | undefined = "vi";
  for (const source of found.sources) {
    const table = found.settings.has(source) ? found.settings : Object.hasOwn(environment, source) ? new Map([[source, environment[source]]]) : undefined;
    const value = table?.get(source);
    if (table === undefined || value === "") continue; // not set: the next
    editor = value;
    break;
  }
  if (editor === undefined) add(here, UNKNOWABLE);
  else nested.push({ script: editorRun(editor), cwd: here.cwd });
}

/** An editor's command line run on a file of its own, as a script: the file in temp space. */
export function editorRun(editor: string): string {
  return `${EDITED}=$(mktemp) && ${editor} "$${EDITED}"`;
}
