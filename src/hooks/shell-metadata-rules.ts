// Commands that change what a file is rather than what it holds: its mode (`chmod 000 f` locks its
// holder out), owner and group, ACLs, extended attributes, and ext4's attributes (`chattr +i f` makes
// it immutable). Each is judged as a write of the files it names, as touch is.
import { type Rule, type RuleInput } from "./shell-rule.js";
import { UNKNOWABLE } from "./shell-words.js";

/** A mode as chmod takes it: `755`, `u+x`, `go-w,a+r`, `=rw`. */
const MODE = /^(?:[ugoa]*(?:[-+=](?:[rwxXst]*|[ugo]))+|[-+=]?[0-7]{1,4})(?:,(?:[ugoa]*(?:[-+=](?:[rwxXst]*|[ugo]))+|[-+=]?[0-7]{1,4}))*$/;
/** chattr's attribute changes: `+i`, `-a`, `=e`. */
const ATTRIBUTES = /^[-+=][aAcCdDeFijmPsStTux]+$/;

/** The files of `CMD [options] SETTING FILE…` (or `--reference=R FILE…`): the operands after the setting. */
function afterSetting(looksLikeSetting: (word: string) => boolean): Rule["writes"] {
  return (input: RuleInput) => {
    const { operands } = input.reading;
    const first = operands[0];
    // `chmod -w f`: getopt reads `-w` as an option, so the first operand is a file; a setting the text does not fix (`chmod "$m" f`) is one.
    const setting = !input.reading.has("reference") && first !== undefined && (input.args[first] === undefined || looksLikeSetting(input.args[first] as string));
    return input.values(setting ? operands.slice(1) : operands);
  };
}

export const METADATA_RULES: Record<string, Rule> = {
  chmod: { syntax: { long: { reference: ":" } }, writes: afterSetting((word) => MODE.test(word)) },
  // `chown user:group f`, `chgrp staff f`: the first operand is always the owner.
  chown: { syntax: { long: { reference: ":", from: ":" } }, writes: afterSetting(() => true) },
  chgrp: { syntax: { long: { reference: ":" } }, writes: afterSetting(() => true) },
  chattr: { syntax: { short: "v:p:" }, writes: afterSetting((word) => ATTRIBUTES.test(word)) },
  setfacl: {
    syntax: { short: "m:x:M:X:", long: { modify: "m", remove: "x", "modify-file": "M", "remove-file": "X", set: ":", "set-file": ":", restore: ":" } },
    // --restore=file changes the files a dump names: the text does not say which.
    writes: (input) => (input.reading.has("restore") ? [UNKNOWABLE] : input.values(input.reading.operands)),
  },
  setfattr: {
    syntax: { short: "n:v:x:", long: { name: "n", value: "v", remove: "x", restore: ":" } },
    writes: (input) => (input.reading.has("restore") ? [UNKNOWABLE] : input.values(input.reading.operands)),
  },
};
