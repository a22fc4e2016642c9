// Commands that change what a file is rather than what it holds: its mode (`chmod 000 f` locks its
// holder out), owner and group, ACLs, extended attributes, and ext4's attributes (`chattr +i f` makes
// it immutable). Each is judged as a write of the files it names, as touch is.
import { isDirectory } from "../targets/target.js";
import { GLOB_MARK, UNKNOWN_MARK } from "./payload.js";
import { type Rule, type RuleInput } from "./shell-rule.js";
import { UNKNOWABLE, within } from "./shell-words.js";

/** A mode as chmod takes it: `755`, `u+x`, `go-w,a+r`, `=rw`. */
const MODE = /^(?:[ugoa]*(?:[-+=](?:[rwxXst]*|[ugo]))+|[-+=]?[0-7]{1,4})(?:,(?:[ugoa]*(?:[-+=](?:[rwxXst]*|[ugo]))+|[-+=]?[0-7]{1,4}))*$/;
/** chattr's attribute changes: `+i`, `-a`, `=e`. */
const ATTRIBUTES = /^[-+=][aAcCdDeFijmPsStTux]+$/;

/**
 * The files a change of what a file is reaches, of those the text names: a directory only with
 * -R (without, its own mode changes, not what it holds), and neither a file the text does not name
 * (`xargs chmod +x`) nor every file under a directory `find -exec chmod {}` may find. A mode is no
 * change of a file's text: a script made executable and run is read as it is (shell-walk.ts).
 */
function named(input: RuleInput, values: string[]): string[] {
  const recursive = input.reading.has("R") || input.reading.has("recursive");
  return values.filter((value) => {
    if (value.startsWith(UNKNOWN_MARK) || (value.startsWith(GLOB_MARK) && value.endsWith("/**"))) return false;
    return recursive || value.startsWith(GLOB_MARK) || !isDirectory(within(input.walk.cwd, value));
  });
}

/** The files of `CMD [options] SETTING FILE…` (or `--reference=R FILE…`): the operands after the setting. */
function afterSetting(looksLikeSetting: (word: string) => boolean): Rule["writes"] {
  return (input: RuleInput) => {
    const { operands } = input.reading;
    const first = operands[0];
    // `chmod -w f`: getopt reads `-w` as an option, so the first operand is a file; a setting the text does not fix (`chmod "$m" f`) is one.
    const setting = !input.reading.has("reference") && first !== undefined && (input.args[first] === undefined || looksLikeSetting(input.args[first] as string));
    return named(input, input.values(setting ? operands.slice(1) : operands));
  };
}

/** The commands of METADATA_RULES: what they change is no file's text. */
export const METADATA_COMMANDS = new Set(["chmod", "chown", "chgrp", "chattr", "setfacl", "setfattr"]);

export const METADATA_RULES: Record<string, Rule> = {
  chmod: { syntax: { long: { reference: ":", recursive: "R" } }, writes: afterSetting((word) => MODE.test(word)) },
  // `chown user:group f`, `chgrp staff f`: the first operand is always the owner.
  chown: { syntax: { long: { reference: ":", from: ":", recursive: "R" } }, writes: afterSetting(() => true) },
  chgrp: { syntax: { long: { reference: ":", recursive: "R" } }, writes: afterSetting(() => true) },
  chattr: { syntax: { short: "v:p:" }, writes: afterSetting((word) => ATTRIBUTES.test(word)) },
  setfacl: {
    syntax: { short: "m:x:M:X:", long: { recursive: "R",  modify: "m", remove: "x", "modify-file": "M", "remove-file": "X", set: ":", "set-file": ":", restore: ":" } },
    // --restore=file changes the files a dump names: the text does not say which.
    writes: (input) => (input.reading.has("restore") ? [UNKNOWABLE] : named(input, input.values(input.reading.operands))),
  },
  setfattr: {
    syntax: { short: "n:v:x:", long: { name: "n", value: "v", remove: "x", restore: ":" } },
    writes: (input) => (input.reading.has("restore") ? [UNKNOWABLE] : named(input, input.values(input.reading.operands))),
  },
};
