// Commands that change what a file is rather than what it holds: its mode (`chmod 000 f` locks its
// holder out), owner and group, ACLs, extended attributes, and ext4's attributes (`chattr +i f` makes
// it immutable). Each is judged as a write of the files it names, as touch is.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { defaultClaimsDir } from "../protocol/settings.js";
import { TAKES_FILE } from "../protocol/store.js";
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
function named(input: RuleInput, values: string[], locksOut = false): string[] {
  const recursive = input.reading.has("R") || input.reading.has("recursive");
  return values.flatMap((value) => {
    if (value.startsWith(UNKNOWN_MARK) || (value.startsWith(GLOB_MARK) && value.endsWith("/**"))) return [];
    if (recursive || value.startsWith(GLOB_MARK)) return [value];
    const path = within(input.walk.cwd, value);
    if (!isDirectory(path)) return [value];
    // A directory's own mode or owner: no file under it changes, unless it is a claims directory or
    // leads to one and its owner may be locked out (`chmod 000 ~/.local/state`): every session's
    // claims there go unread, and each hook lets writes through (fail-open). A write of the claims
    // directory itself, which the hook refuses.
    return locksOut ? claimsDirectoriesThrough(path, input) : [];
  });
}

/** The claims directories a directory is or leads to: one holding a take lock, the one below it as XDG_STATE_HOME (`claims/`), and the ones the environment names under it. */
function claimsDirectoriesThrough(directory: string, input: RuleInput): string[] {
  const { environment, home } = input.walk;
  const named = [join(directory, "claims"), defaultClaimsDir(environment, home), ...(environment.CLAIMS_DIR ? [environment.CLAIMS_DIR] : [])];
  const found = [directory, ...named].filter((dir) => (dir === directory || dir.startsWith(`${directory}/`)) && existsSync(join(dir, TAKES_FILE)));
  return [...new Set(found)];
}

/** Whether setfacl may change the owner's entry: `-m u::r`, `--set …`, or entries from a file. */
function ownerEntryChanged(input: RuleInput): boolean {
  const { reading } = input;
  if (reading.has("set") || reading.has("set-file") || reading.has("M")) return true;
  return reading.occurrences("m").some(({ value }) => value === undefined || /(?:^|,)\s*(?:u|user)::/.test(value));
}

/**
 * Whether a chmod setting may take a permission away from the file's owner: a number whose owner
 * digit is not 7 (`000`, `644`, `-100`), or a clause for the owner (`u`, `a` or none) that removes
 * r, w or x or sets fewer than all three (`-x`, `a=r`, `u-w`). `go-w`, `755`, `u+x` do not.
 */
export function mayLockOutOwner(mode: string): boolean {
  return mode.split(",").some((clause) => {
    const numeric = /^([-+=]?)([0-7]{1,4})$/.exec(clause);
    if (numeric) {
      const [, op, digits] = numeric as unknown as [string, string, string];
      const owner = digits.length >= 3 ? Number(digits[digits.length - 3]) : 0;
      return op === "+" ? false : op === "-" ? owner !== 0 : owner !== 7;
    }
    const who = /^[ugoa]*/.exec(clause)?.[0] ?? "";
    if (who !== "" && !/[ua]/.test(who)) return false;
    return [...clause.slice(who.length).matchAll(/([-+=])([rwxXst]*|[ugo])/g)].some(([, op, perms = ""]) => (op === "-" && /[rwx]/.test(perms)) || (op === "=" && !(/r/.test(perms) && /w/.test(perms) && /x/.test(perms))));
  });
}

/** The files of `CMD [options] SETTING FILE…` (or `--reference=R FILE…`): the operands after the setting. */
function afterSetting(looksLikeSetting: (word: string) => boolean, locksOut: (setting: string | undefined) => boolean): Rule["writes"] {
  return (input: RuleInput) => {
    const { operands } = input.reading;
    const first = operands[0];
    // `chmod -w f`: getopt reads `-w` as an option, so the first operand is a file; a setting the text does not fix (`chmod "$m" f`) is one.
    const setting = !input.reading.has("reference") && first !== undefined && (input.args[first] === undefined || looksLikeSetting(input.args[first] as string));
    // What the setting does to the owner: unknown (`chmod "$m" d`, --reference) counts as a lock-out.
    const given = setting && first !== undefined ? input.args[first] : undefined;
    return named(input, input.values(setting ? operands.slice(1) : operands), locksOut(given));
  };
}

/** The commands of METADATA_RULES: what they change is no file's text. */
export const METADATA_COMMANDS = new Set(["chmod", "chown", "chgrp", "chattr", "setfacl", "setfattr"]);

export const METADATA_RULES: Record<string, Rule> = {
  chmod: { syntax: { long: { reference: ":", recursive: "R" } }, writes: afterSetting((word) => MODE.test(word), (mode) => mode === undefined || mayLockOutOwner(mode)) },
  // `chown user:group f`, `chgrp staff f`: the first operand is always the owner. A new owner may lock the old one out; a group leaves the owner in.
  chown: { syntax: { long: { reference: ":", from: ":", recursive: "R" } }, writes: afterSetting(() => true, () => true) },
  chgrp: { syntax: { long: { reference: ":", recursive: "R" } }, writes: afterSetting(() => true, () => false) },
  // `chattr +i d`: immutable, nothing can be created or removed in it; taking an attribute away locks nobody out.
  chattr: { syntax: { short: "v:p:" }, writes: afterSetting((word) => ATTRIBUTES.test(word), (attributes) => attributes === undefined || !attributes.startsWith("-")) },
  setfacl: {
    syntax: { short: "m:x:M:X:", long: { recursive: "R",  modify: "m", remove: "x", "modify-file": "M", "remove-file": "X", set: ":", "set-file": ":", restore: ":" } },
    // --restore=file changes the files a dump names: the text does not say which.
    // `-m u::---` (or a whole ACL set) may take the owner's permissions away.
    writes: (input) => (input.reading.has("restore") ? [UNKNOWABLE] : named(input, input.values(input.reading.operands), ownerEntryChanged(input))),
  },
  setfattr: {
    syntax: { short: "n:v:x:", long: { name: "n", value: "v", remove: "x", restore: ":" } },
    writes: (input) => (input.reading.has("restore") ? [UNKNOWABLE] : named(input, input.values(input.reading.operands))),
  },
};
