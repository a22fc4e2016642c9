// What the scripts of sed, awk, Vim/ex and ed write (the rules in shell-rules.ts read their
// options): sed's `w`/`W` and `s///w`, awk's `print > "f"`, Vim's `-c`/`+cmd` and ex's commands
// (`:w f`, `:saveas`), ed's. A script that runs a command (sed `e`, awk `system()`, `:!`) or whose
// shape the text does not fix could write any file.
import { exists } from "../targets/target.js";
import { GLOB_MARK } from "./payload.js";
import type { RuleInput } from "./shell-rule.js";
import { STDIN } from "./shell-runners.js";
import { judgedPath, outputs, readText, UNKNOWABLE, within, writtenBefore } from "./shell-words.js";

/**
 * The script a sed or awk runs: its `-e` texts and `-f` files (`-f -`: stdin), else its first
 * operand, with a hole for each part the text does not fix; undefined where it cannot be read (a
 * file named by a variable, or one the command writes first), which could write anything. A file
 * that is not there makes the tool stop before it reads any input: nothing.
 */
export function scriptOf(input: RuleInput, inline: string, file: string, join: string): string | undefined {
  const { reading, walk } = input;
  if (!reading.has(inline, file)) {
    const first = reading.operands[0];
    return first === undefined ? "" : (input.args[first] ?? input.text(first));
  }
  const parts: Array<string | undefined> = [];
  for (const key of [inline, file]) {
    for (const { value, at } of reading.occurrences(key)) {
      const text = value ?? (at === undefined ? undefined : input.text(at));
      if (key === inline) parts.push(text);
      else if (text === undefined || HOLE.test(text)) parts.push(undefined);
      else if (STDIN.test(text)) parts.push(input.stdin);
      else {
        // A file that is not there, nor written before in the command, stops the tool before it runs.
        const path = within(walk.cwd, text);
        parts.push(readText(path) ?? (path.startsWith("\0") || exists(path) || writtenBefore(walk, path) ? undefined : ""));
      }
    }
  }
  return parts.includes(undefined) ? undefined : parts.join(join);
}

/** A part of a script's text the text does not fix (a variable, a substitution): RuleInput.text's holes. */
const HOLE = /[\u0001\u0002]/;

/** A file a script names for writing: itself, judged where the text does not fix it (`w "$d/x"`), none for stdout. */
const scriptFile = (name: string): string[] => outputs([HOLE.test(name) ? judgedPath(name) : name]).filter((path) => path !== "/dev/stdout" && path !== "/dev/stderr");

/**
 * The files a sed script writes: `w f` and `W f` (to the end of the line), the `w f` flag of `s///`.
 * `e` and the `e` flag run a command, and a script whose shape the text does not fix (a command
 * or delimiter that is a variable) could do anything: any file.
 */
export function sedScriptWrites(script: string): string[] {
  const written: string[] = [];
  let at = 0;
  const line = () => {
    const end = script.indexOf("\n", at);
    const text = script.slice(at, end === -1 ? script.length : end);
    at = end === -1 ? script.length : end + 1;
    return text;
  };
  // From just after a delimiter to just after the next one not escaped.
  const delimited = (delimiter: string) => {
    while (at < script.length && script[at] !== delimiter) at += script[at] === "\\" ? 2 : 1;
    at++;
  };
  const address = () => {
    if (/[\d$]/.test(script[at] ?? "")) at += (/^(\d+(~\d+)?|\$)/.exec(script.slice(at))?.[0] ?? "").length;
    else if (script[at] === "/" || script[at] === "\\") {
      const delimiter = script[at] === "/" ? "/" : (script[at + 1] ?? "");
      at += script[at] === "/" ? 1 : 2;
      delimited(delimiter);
      while (/[IM]/.test(script[at] ?? "")) at++;
    }
  };
  while (at < script.length) {
    if (/[\s;]/.test(script[at] as string)) {
      at++;
      continue;
    }
    if (script[at] === "#") {
      line();
      continue;
    }
    address();
    while (script[at] === " ") at++;
    if (script[at] === ",") {
      at++;
      while (script[at] === " ") at++;
      if (/[+~]/.test(script[at] ?? "")) at++;
      address();
    }
    while (/[\s!]/.test(script[at] ?? "")) at++;
    const command = script[at++] ?? "";
    if ("{}=dDgGhHnNpPxzF".includes(command)) continue;
    if ("lLqQ".includes(command)) while (/\d/.test(script[at] ?? "")) at++;
    else if (":btTv".includes(command)) while (at < script.length && !/[;\n]/.test(script[at] as string)) at++;
    else if ("aicrR".includes(command)) while (line().endsWith("\\") && at < script.length);
    else if (command === "w" || command === "W") written.push(...scriptFile(line().trim()));
    else if (command === "s" || command === "y") {
      const delimiter = script[at++] ?? "";
      if (delimiter === "" || delimiter === "\n" || delimiter === "\\" || HOLE.test(delimiter)) return [UNKNOWABLE];
      delimited(delimiter);
      delimited(delimiter);
      if (command === "y") continue;
      while (/[gpiImM\d]/.test(script[at] ?? "")) at++;
      if (script[at] === "e") return [UNKNOWABLE];
      if (script[at] === "w") {
        at++;
        written.push(...scriptFile(line().trim()));
      }
    } else return [UNKNOWABLE]; // `e cmd`, or a command the text does not fix
  }
  return written;
}

/**
 * The files an awk program writes: a print's or printf's `> "f"` or `>> "f"` (at the statement's own
 * level: `print (a > b)` compares); a target that is no literal string, a pipe (`print | "cmd"`,
 * `"cmd" | getline`, `|&`) or system() could be any file. Strings, regexes and comments aside.
 */
export function awkProgramWrites(program: string): string[] {
  if (HOLE.test(program) && program.replace(new RegExp(HOLE.source, "g"), "").trim() === "") return [UNKNOWABLE]; // awk "$prog"
  const written: string[] = [];
  let depth = 0;
  let printing: number | undefined; // the depth of the print statement being read
  let last = ""; // the last token's kind: "a" an operand (a name, a number, a string, `)`), else the character
  const string = (from: number) => {
    let end = from + 1;
    while (end < program.length && program[end] !== '"') end += program[end] === "\\" ? 2 : 1;
    return end;
  };
  for (let at = 0; at < program.length; at++) {
    const char = program[at] as string;
    if (char === "#") {
      while (at < program.length && program[at] !== "\n") at++;
    } else if (char === '"') {
      at = string(at);
      last = "a";
    } else if (char === "/" && !/[a)\]]/.test(last)) {
      at++;
      while (at < program.length && program[at] !== "/") at += program[at] === "\\" ? 2 : 1;
      last = "a";
    } else if (/[A-Za-z_]/.test(char)) {
      const word = /^[A-Za-z_]\w*/.exec(program.slice(at))?.[0] as string;
      if (word === "system") return [UNKNOWABLE];
      if (word === "print" || word === "printf") printing = depth;
      at += word.length - 1;
      last = "a";
    } else if (char === "|" && program[at + 1] === "|") {
      at++;
      last = "|";
    } else if (char === "|") return [UNKNOWABLE];
    else if (char === ">" && printing === depth) {
      at += program[at + 1] === ">" ? 2 : 1;
      while (program[at] === " " || program[at] === "\t") at++;
      if (program[at] !== '"') return [UNKNOWABLE];
      const end = string(at);
      const name = program.slice(at + 1, end);
      // `print > "split_" NR ".txt"`: the name is the string joined with what follows it, any name starting so.
      let next = end + 1;
      while (program[next] === " " || program[next] === "\t") next++;
      const joined = next < program.length && !/[;}\n|)]/.test(program[next] as string) && !/^(?:else|if)\b/.test(program.slice(next));
      if (joined) written.push(...(HOLE.test(name) || name.includes("/") || name === "" ? [UNKNOWABLE] : [`${GLOB_MARK}${name.replace(/[*?[\]\\]/g, "\\$&")}*`]));
      else written.push(...scriptFile(name));
      at = end;
      last = "a";
    } else {
      if ("({[".includes(char)) depth++;
      if (")}]".includes(char)) depth--;
      if ((";\n".includes(char) && printing === depth) || (printing !== undefined && depth < printing)) printing = undefined;
      if (!/\s/.test(char)) last = ")]".includes(char) || /\d/.test(char) || char === "$" ? "a" : char;
    }
  }
  return written;
}

/** An ex command's name as Vim reads it (`w`, `wri`, `write`), from a spec such as `w[rite]`. */
const exNames = (...specs: string[]) => (word: string) =>
  specs.some((spec) => {
    const [head, tail = ""] = spec.replace("]", "").split("[") as [string, string?];
    return word.startsWith(head) && (head + tail).startsWith(word);
  });
const EX_WRITE = exNames("w[rite]", "wq", "x[it]", "exi[t]", "up[date]", "sav[eas]", "wn[ext]", "wN[ext]", "wp[revious]", "wa[ll]", "wqa[ll]", "xa[ll]");
const EX_OPEN = exNames("e[dit]", "new", "vne[w]", "sp[lit]", "vs[plit]", "tabe[dit]", "tabnew", "n[ext]", "ar[gs]", "f[ile]", "bad[d]", "vie[w]", "sv[iew]");
const EX_MODIFIER = exNames("sil[ent]", "keepp[atterns]", "kee[pmarks]", "keepj[umps]", "keepa[lt]", "lockm[arks]", "noa[utocmd]", "uns[ilent]");
const EX_GLOBAL = exNames("g[lobal]", "v[global]");
const EX_SUBSTITUTE = exNames("s[ubstitute]", "&", "~");
const EX_HARMLESS = exNames(
  "q[uit]", "qa[ll]", "quita[ll]", "cq[uit]", "d[elete]", "se[t]", "setl[ocal]", "setg[lobal]", "sy[ntax]", "filet[ype]", "noh[lsearch]", "ret[ab]", "norm[al]",
  "j[oin]", "m[ove]", "t", "co[py]", ">", "<", "=", "p[rint]", "nu[mber]", "#", "l[ist]", "u[ndo]", "red[o]", "k", "ma[rk]", "sor[t]", "le[ft]", "ri[ght]", "ce[nter]",
  "pu[t]", "y[ank]", "ec[ho]", "a[ppend]", "i[nsert]", "c[hange]", "bd[elete]", "bw[ipeout]", "b[uffer]", "bn[ext]", "bp[revious]", "r[ead]", "redi[r]", "go[to]",
);

/**
 * The files a Vim or ex script writes (`-c` commands, `+cmd`, an ex script on stdin): `:w f`,
 * `:saveas f`, `:redir > f`, and a file it opens (`:e f`, which a later `:w` writes); any file for
 * a shell command (`:!`, `:w !cmd`, `:r !cmd`), a script it sources, or a command it does not
 * know. `:w` alone writes the file already open: an operand.
 */
export function exScriptWrites(script: string): string[] {
  const written: string[] = [];
  for (const whole of script.split("\n")) {
    let rest = whole;
    while (rest.trim() !== "") {
      // A range (`%`, `1,$`, `'<,'>`, `/re/`), then the command's name and its `!`.
      rest = rest.replace(/^([\s:|%.$\d,;+-]|'[a-z<>]|\/(\\.|[^/])*\/|\?(\\.|[^?])*\?)*/, "");
      const match = /^([A-Za-z]+|[&~<>=#!])(!?)\s*/.exec(rest);
      if (!match) return rest === "" ? written : [UNKNOWABLE];
      const word = match[1] as string;
      rest = rest.slice(match[0].length);
      if (word === "!") return [UNKNOWABLE];
      if (EX_MODIFIER(word)) continue;
      if (EX_GLOBAL(word)) {
        // g/re/cmd: the commands after the pattern, to the end of the line.
        const delimiter = rest[0] ?? "";
        const end = rest.slice(1).search(new RegExp(`(?<!\\\\)${delimiter.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&")}`));
        const inner = exScriptWrites(end === -1 ? "" : rest.slice(end + 2));
        if (inner.includes(UNKNOWABLE)) return [UNKNOWABLE];
        written.push(...inner);
        break;
      }
      if (exNames("norm[al]")(word)) {
        if (/[\r\u001b]|<cr>/i.test(rest)) return [UNKNOWABLE]; // keys that could finish a `:w other`
        break;
      }
      if (EX_SUBSTITUTE(word) && /^[^\w\s|"\\]/.test(rest)) {
        // s/pat/rep/flags: a `|` in the pattern or replacement is theirs.
        const delimiter = rest[0] as string;
        let at = 1;
        for (let seen = 0; at < rest.length && seen < 2; at++) {
          if (rest[at] === "\\") at++;
          else if (rest[at] === delimiter) seen++;
        }
        rest = rest.slice(at);
      }
      // The argument: to a `|` not escaped.
      const bar = rest.search(/(?<!\\)\|/);
      const argument = (bar === -1 ? rest : rest.slice(0, bar)).trim();
      rest = bar === -1 ? "" : rest.slice(bar + 1);
      if (EX_WRITE(word)) {
        if (argument.startsWith("!")) return [UNKNOWABLE];
        const name = argument.replace(/^>>\s*/, "");
        if (/(?<!\\)[%#`$]/.test(name)) return [UNKNOWABLE];
        if (name !== "") written.push(...scriptFile(name));
      } else if (EX_OPEN(word)) {
        if (argument.startsWith("!") || /(?<!\\)[`$]/.test(argument)) return [UNKNOWABLE];
        written.push(...argument.split(/\s+/).filter((name) => name !== "" && !name.startsWith("+") && !/^[%#]/.test(name)).flatMap(scriptFile));
      } else if (exNames("redi[r]")(word)) {
        const file = /^!?\s*>>?\s*(.+)$/.exec(argument)?.[1];
        if (file !== undefined) written.push(...scriptFile(file.trim()));
      } else if (exNames("r[ead]")(word) && argument.startsWith("!")) return [UNKNOWABLE];
      else if (!EX_HARMLESS(word) && !EX_SUBSTITUTE(word)) return [UNKNOWABLE];
    }
  }
  return written;
}

/**
 * The files an ed script writes (its commands on stdin): `w f`, `W f`, `wq f`, and a file it opens
 * or names (`e f`, `f f`: a later `w` writes it); any file for a shell command (`!cmd`, `w !cmd`,
 * `r !cmd`) or a command it does not know. Text after `a`, `i` and `c` is skipped to its `.`.
 */
export function edScriptWrites(script: string): string[] {
  const written: string[] = [];
  const lines = script.split("\n");
  for (let at = 0; at < lines.length; at++) {
    const rest = (lines[at] as string).replace(/^([\s%.$\d,;+-]|'[a-z]|\/(\\.|[^/])*\/|\?(\\.|[^?])*\?)*/, "");
    const match = /^(wq|[a-zA-Z=!])(.*)$/.exec(rest);
    if (!match) {
      if (rest.trim() === "") continue;
      return [UNKNOWABLE];
    }
    const [, command, argument = ""] = match as unknown as [string, string, string?];
    const name = argument.trim();
    if ("aic".includes(command)) while (at + 1 < lines.length && lines[at + 1] !== ".") at++;
    else if (command === "!" || (/^(w|W|wq|r|e|E)$/.test(command) && name.startsWith("!"))) return [UNKNOWABLE];
    else if (/^(w|W|wq|e|E|f)$/.test(command)) written.push(...(name === "" ? [] : scriptFile(name)));
    else if ("gGvV".includes(command)) {
      const inner = edScriptWrites(argument.replace(/^(.)((\\.|(?!\1).)*)\1/, ""));
      if (inner.includes(UNKNOWABLE)) return [UNKNOWABLE];
      written.push(...inner);
    } else if (!"sdpnlmtjkuqQHhPzxy=#".includes(command)) return [UNKNOWABLE];
  }
  return written;
}
