// Input the Claude hook is slow to read: large heredocs, long lines and long programs in a shell
// command, and a file a symbol grammar is slow on. The bash grammar's heredoc scanner costs the
// square of a body's length: a 100 KB line in `cat > f
// <<'EOF'` took the hook past a minute, and Claude Code runs a command whose PreToolUse hook
// outlasts its timeout unjudged (10 s, as `claims hook install` sets it). Each case here is run as
// the agent runs the hook, with that timeout: the hook must answer, and answer right. Another
// session holds u.ts; session s2 runs the command.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { BIN, claims, cleanEnv, type Sandbox } from "./helpers.js";
import { event, heldBox, writes } from "./hook-shell-helpers.js";
import { HOOK_TIMEOUT_SECONDS } from "../src/hooks/config.js";

/** The timeout the installed hook is given. */
const AGENT_TIMEOUT_MS = HOOK_TIMEOUT_SECONDS * 1000;

/**
 * The hook's answer to a PreToolUse call as the agent gets it: "deny", "allow" (silence), or "no
 * answer" when the agent would have stopped waiting. Claude's hook refuses in JSON on stdout,
 * Codex's by exit 2 with the reason on stderr.
 */
function decision(box: Sandbox, agent: "claude" | "codex", call: { tool_name: string; tool_input: Record<string, unknown> }): string {
  const result = spawnSync(process.execPath, [BIN, "hook", agent, "--dir", box.dir], {
    input: JSON.stringify({ session_id: "s2", cwd: box.project, tool_use_id: "t1", hook_event_name: "PreToolUse", ...call }),
    env: cleanEnv(),
    encoding: "utf8",
    timeout: AGENT_TIMEOUT_MS,
  });
  // Past the timeout the hook is sent SIGTERM (a take waiting out a race notes it, and may still exit 0).
  if (result.status === null || (result.error as NodeJS.ErrnoException | undefined)?.code === "ETIMEDOUT") return "no answer";
  if (agent === "codex") return result.status === 2 && /claimed by another session/.test(result.stderr) ? "deny" : result.status === 0 ? "allow" : `exit ${result.status}`;
  return result.stdout.trim() ? JSON.parse(result.stdout).hookSpecificOutput.permissionDecision : "allow";
}

/** The Claude hook's answer to a Bash call. */
const answer = (box: Sandbox, command: string) => decision(box, "claude", { tool_name: "Bash", tool_input: { command } });

const line = (length: number, unit = "a") => unit.repeat(Math.ceil(length / unit.length)).slice(0, length);

type Context = { box: Sandbox };
const Heredocs = suite<Context>("claims hook: large heredocs and long lines");
Heredocs.before.each((context) => {
  context.box = heldBox();
});
Heredocs.after.each((context) => context.box.cleanup());

Heredocs("should judge a file written from a heredoc with a 100 KB line by its name, and answer", async ({ box }) => {
  const json = `{"data": "${line(100_000)}"}`;
  const command = (file: string, quote = "'") => `cat > ${file} <<${quote}EOF${quote}\n${json}\nEOF`;
  assert.equal(await writes(box, command("data.json")), ["data.json"]);
  assert.equal(await writes(box, command("data.json", "")), ["data.json"], "unquoted, with nothing it expands");
  assert.is(answer(box, command("data.json")), "allow", "data.json is no one's");
  assert.is(answer(box, command("u.ts")), "deny", "u.ts is held");
  // Many lines, as a generated file is written: the same.
  const lines = Array.from({ length: 4000 }, (_, at) => `export const v${at} = "${line(40, "x")}";`).join("\n");
  assert.equal(await writes(box, `cat > gen.ts <<'EOF'\n${lines}\nEOF\necho done`), ["gen.ts"]);
  assert.is(answer(box, `cat > u.ts <<'EOF'\n${lines}\nEOF`), "deny");
});

Heredocs("should judge a large unquoted body that runs commands as writing any file, and read what a shell reads from one", async ({ box }) => {
  // What it runs only the grammar reads, in minutes: any file. Under 8 KB, the grammar reads it.
  const body = `${line(50_000)}\n$(rm -f u.ts)\n\`touch b.ts\`\n${line(50_000, "b ")}`;
  assert.equal(await writes(box, `cat > notes.txt <<EOF\n${body}\nEOF`), ["unknown:."]);
  assert.equal(await writes(box, `cat > notes.txt <<EOF\n${line(3000)}\n$(rm -f u.ts)\n\`touch b.ts\`\nEOF`), ["b.ts", "notes.txt", "u.ts"]);
  assert.equal(await writes(box, `cat > notes.txt <<'EOF'\n${body}\nEOF`), ["notes.txt"], "quoted: nothing in it runs");
  assert.is(answer(box, `cat > notes.txt <<EOF\n${body}\nEOF`), "deny");
  // A script given to a shell on its input: its commands are read, the heredocs in it set aside in turn.
  const script = `# ${line(30_000)}\ncat > c.ts <<'INNER'\n${line(30_000)}\nINNER\nrm -f u.ts\n`;
  assert.equal(await writes(box, `bash <<'EOF'\n${script}EOF`), ["c.ts", "u.ts"]);
  assert.is(answer(box, `bash <<'EOF'\n${script}EOF`), "deny");
});

Heredocs("should find what bash runs around a large heredoc as the grammar alone did (a review's cases)", async ({ box }) => {
  const filler = line(3000, "notes ");
  writeFileSync(join(box.project, "xa.ts"), "");
  const cases: Array<[string, string[]]> = [
    // The grammar ends a heredoc at a line that starts with its delimiter (`EOF)`), bash at one that is it: not set aside.
    [`msg=$(cat <<'EOF'\n${filler}\nEOF)\nrm -f u.ts\ncat > other.txt <<'EOF'\nsmall\nEOF`, ["other.txt", "u.ts"]],
    [`msg=\`cat <<'EOF'\n${filler}\nEOF\`\nrm -f u.ts\ncat > other.txt <<'EOF'\nsmall\nEOF`, ["other.txt", "u.ts"]],
    // A carriage return is part of bash's delimiter: `EOF\r` ends it, not `EOF`.
    [`cat > a.txt <<EOF\r\n${filler}\nEOF\r\nrm -f u.ts\nEOF`, ["a.txt", "u.ts"]],
    // What an unquoted body runs or sets is the grammar's to read: parentheses in quotes, a case, ${f:=…}.
    [`cat > notes.md <<EOF\n$(printf '(' ; rm -f u.ts)\n${filler}\nEOF`, ["notes.md", "u.ts"]],
    [`cat > notes.md <<EOF\n$(case x in x) rm -f u.ts;; esac)\n${filler}\nEOF`, ["notes.md", "u.ts"]],
    [`f=\n: <<EOF\n\${f:=u}\n${filler}\nEOF\nrm -f "$f.ts"`, ["unknown:."]],
    // A \" outside quotes opens none: the command after the ; is read.
    ['c=rm; echo \\"; $c u.ts', ["u.ts"]],
    // An escaped [ inside a bracket glob is the bracket's.
    ["rm -f x[a\\[b].ts", ["xa.ts"]],
    // A program's command list longer than the hook reads: any file.
    [`python3 -c 'import subprocess\nsubprocess.run([${Array.from({ length: 120 }, (_, at) => `"word${at}xxxxxxxxxx"`).join(",\n")}])'`, ["unknown:."]],
  ];
  for (const [command, expected] of cases) assert.equal(await writes(box, command), expected, command.slice(0, 40));
  // A `<<` in a comment before a large heredoc: set aside again without it, and answered in time.
  const commented = `# write it with a heredoc (cat <<EOF style)\ncat > u.ts <<'EOF'\n${line(40_000)}\nEOF`;
  assert.equal(await writes(box, commented), ["u.ts"]);
  assert.is(answer(box, commented), "deny");
  // Many heredocs each under the old 2 KB threshold: each set aside, each file judged.
  const many = Array.from({ length: 80 }, (_, at) => `cat > f${at}.json <<'EOF'\n${line(1900, "[1,")}\nEOF`).join("\n");
  assert.is((await writes(box, many)).length, 80);
});

Heredocs("should set aside a large <<- body too, its tabs removed, and judge one it cannot set aside as writing any file", async ({ box }) => {
  const big = line(60_000);
  assert.equal(await writes(box, `cat > f.txt <<-EOF\n\t${big}\n\tEOF\nrm -f u.ts`), ["f.txt", "u.ts"]);
  assert.equal(await writes(box, `cat > f.txt <<-EOF\n\t${big}\n\t$(rm -f y.ts)\n\tEOF`), ["unknown:."], "what a large unquoted one runs: any file");
  assert.equal(await writes(box, `cat > f.txt <<-'EOF'\n\t${big}\n\t$(rm -f y.ts)\n\tEOF`), ["f.txt"], "a quoted one runs nothing");
  // A program written with <<- is the text bash writes: its tabs gone, then read (a line of 1,900 characters keeps it under the limits).
  const comment = `# ${line(1900)}`;
  assert.equal(await writes(box, `cat > f.py <<-'EOF'\n\timport os\n\tos.remove("z.ts")\n\t${comment}\n\t${comment}\n\tEOF\npython3 f.py`), ["f.py", "z.ts"]);
  // No end line (bash reads the rest as the body), or two heredocs on one line split at its `;`: set aside all the same.
  assert.equal(await writes(box, `cat > f.txt <<EOF\n${big}`), ["f.txt"]);
  assert.equal(await writes(box, `cat <<A > f.txt; cat <<B > g.txt\n${big}\nA\nb\nB`), ["f.txt", "g.txt"]);
  // Two on a line the grammar reads as one command: it would take minutes, inside one step of its parse.
  assert.equal(await writes(box, `cat <<A <<B > f.txt\n${big}\nA\nb\nB`), ["unknown:."]);
  for (const command of [`cat > u.ts <<-EOF\n${big}\nEOF`, `cat > u.ts <<EOF\n${big}`, `cat <<A > f.txt; cat <<B > u.ts\n${big}\nA\nb\nB`, `cat <<A <<B > f.txt\n${big}\nA\nb\nB`]) {
    assert.is(answer(box, command), "deny", command.slice(0, 20));
  }
  assert.is(answer(box, `cat <<A > f.txt; cat <<B > g.txt\n${big}\nA\nb\nB`), "allow", "read in time, and it writes no held file");
});

Heredocs("should judge a program with a line past what it reads as writing any file, inline as from a file", async ({ box }) => {
  const program = `print(${JSON.stringify(line(100_000))})\nopen("other.ts", "w")`;
  assert.equal(await writes(box, `python3 - <<'EOF'\n${program}\nEOF`), ["unknown:."]);
  assert.equal(await writes(box, `python3 -c '${program.replaceAll("'", "")}'`), ["unknown:."]);
  assert.equal(await writes(box, `cat > /tmp/fix-${process.pid}.py <<'EOF'\n${program}\nEOF\npython3 /tmp/fix-${process.pid}.py`), [`/tmp/fix-${process.pid}.py`, "unknown:."]);
  assert.is(answer(box, `python3 - <<'EOF'\n${program}\nEOF`), "deny");
  // Hostile program text (quotes left open, calls never closed) is answered too.
  for (const text of [`x = ${line(60_000, "'a")}`, line(60_000, "open("), `x = "${line(60_000, '\\"')}`]) {
    assert.is(answer(box, `python3 - <<'EOF'\n${text}\nEOF`), "deny", text.slice(0, 12));
  }
  // Up to the limits, hostile text is read in time too: quote-like strings and command lists left open on every line.
  for (const unit of ["%q(", "qq[", "subprocess.run([\"a\","]) {
    const text = Array(125).fill(line(1990, unit)).join("\n");
    assert.is(answer(box, `perl - <<'EOF'\n${text}\nEOF`), "allow", `${unit}: it names no file of anyone's`);
  }
  // Under the limits, read as before: other.ts is what it names.
  assert.equal(await writes(box, `python3 - <<'EOF'\nopen("other.ts", "w")\nEOF`), ["other.ts"]);
});

Heredocs("should read a heredoc it cannot set aside as the grammar does", async ({ box }) => {
  // A `<<` in a comment starts no heredoc: the lines after it are commands.
  const filler = `# ${line(3000)}`;
  assert.equal(await writes(box, `# cat <<EOF\n${filler}\nrm -f u.ts\nEOF=1`), ["u.ts"]);
  // Two on one line, and `<<-` with its tabs: left to the grammar, read as before.
  assert.equal(await writes(box, `cat <<-EOF > t.txt\n\t${line(3000)}\n\tEOF\nrm -f u.ts`), ["t.txt", "u.ts"]);
  // No end line: bash reads the rest of the text as the body, and runs none of it.
  assert.equal(await writes(box, `cat > t.txt <<'EOF'\n${line(3000)}\nrm -f u.ts`), ["t.txt"]);
});

Heredocs("should answer a command the grammar is slow on, judging it as writing any file", async ({ box }) => {
  // 40 KB of redirections: the parse stops at the hook's deadline; the refusal says why, and what to do.
  assert.is(answer(box, `echo ${line(40_000, ">")}`), "deny");
  const refusal = event(box, { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: `python3 - <<'EOF'\nprint("${line(3000)}")\nEOF` } });
  const reason = JSON.parse(refusal.stdout).hookSpecificOutput.permissionDecisionReason as string;
  assert.match(reason, /text too large to read in time \(a program over 256 KiB or with a line over 2,000 characters/);
  assert.match(reason, /write a large file with the editor's write tool, or from a heredoc with a quoted delimiter/);
  // 100 KB of `[`: no bracket glob, read once (looked for from every `[` to the end, past the timeout).
  assert.is(answer(box, `bash -c '${line(100_000, "[")}'`), "allow", "the test command writes nothing");
  // A quote left open on a long line: the gate reads the rest as quoted, once.
  assert.is(answer(box, `echo "${line(60_000, '\\"')}`), "allow");
});

Heredocs("should answer a long line of prose in time, and a command past the text it reads as writing any file", async ({ box }) => {
  // Names of commands the gate looks at (`python … -c`, `sort … -o`), each looked for to the end of its line: 150 KB took it 8 s, 250 KB past the timeout.
  const prose = line(250_000, "the python is a time to sort ");
  assert.is(answer(box, `echo "${prose}" | sort -o u.ts`), "deny", "u.ts is held");
  assert.is(answer(box, `echo "${prose}" | sort -o sorted.txt`), "allow");
  assert.equal(await writes(box, `echo "${prose}" | sort -o sorted.txt`), ["sorted.txt"]);
  // Past 256 KiB given to the grammar, heredoc bodies set aside (1.2 MB of words took the walk past the timeout), or
  // 150,000 nodes of its tree (25,000 heredocs on a line: 5 s): any file; so is a command not read whole in 6 s
  // (WALK_LIMIT: a loaded machine may take that long over 20,000 commands), and a long chain read in time is read right.
  assert.is(answer(box, `${"a&&".repeat(20_000)}rm u.ts`), "deny", "a chain of 20,000 commands took 16 s");
  assert.is(answer(box, `${"a||".repeat(2_000)}echo x > free.txt`), "allow");
  assert.is(answer(box, `${"cat <<A;".repeat(25_000)}echo x > free.txt\nx\n`), "deny");
  // Heredocs in `$(…)` closed on their line, their bodies placed inside each (10,000 took 8 s, 20,000 44 s).
  assert.is(answer(box, `echo ${"$(cat <<EOF)".repeat(20_000)}; echo ok > free.txt\n${"a\nEOF\n".repeat(20_000)}`), "deny");
  assert.is(answer(box, `${"x=$(cat <<EOF); ".repeat(20_000)}rm u.ts\n${"a\nEOF\n".repeat(20_000)}`), "deny");
  // A heredoc body of 40,000 lines each ending in `\\` (joined again and counted again: 15 s), and 20,000 `cd` into directories not there.
  assert.is(answer(box, `rm u.ts; cat <<EOF\n${"\\\\\\\n".repeat(40_000)}EOF`), "deny");
  assert.is(answer(box, `echo x > free.txt\n${"cd src && ".repeat(2_000)}true`), "allow");
  const words = line(1_200_000, "word ");
  assert.is(answer(box, `echo ${words}; rm -f u.ts`), "deny");
  assert.equal(await writes(box, `echo ${words}`), ["unknown:."]);
  assert.equal(await writes(box, `cat > big.txt <<'EOF'\n${words}\nEOF`), ["big.txt"], "a body set aside is not given to the grammar");
});

Heredocs("should answer in time where a gate pattern could read option words two ways", ({ box }) => {
  // The gate's ar pattern took `--a` as `-` then `-a`, or as `--a`: each such word doubled its work,
  // 26 took 1.4 s, and 40 kept the hook past the agent's timeout, so the command ran unjudged.
  writeFileSync(join(box.project, "gen2.py"), "open('u.ts', 'w').write('x')\n");
  assert.is(answer(box, `python3 gen2.py # ar ${"--a ".repeat(40)}`), "deny", "gen2.py, the agent's, writes u.ts");
  assert.is(answer(box, `echo ar ${"--a ".repeat(60)}`), "allow");
});

Heredocs("should place each command of a long chain without asking the grammar for its parent", async ({ box }) => {
  // tree-sitter finds a node's parent by descending from the root, and a chain of `&&` nests its
  // commands as deep as it is long: asked of each command (is its input redirected, is it in a
  // pipeline, is an assignment at the top), the square of the chain: 20,000 commands took 6-16 s,
  // and the walk gives up at 6 s (any file). The walk finds the parents in one pass instead.
  const { parserFor } = await import("../src/targets/symbols.js");
  const { parentOf } = await import("../src/hooks/shell-tree.js");
  const parser = await parserFor("bash");
  // The parents it finds are the grammar's, for every node of a script with most of bash's shapes.
  const tree = parser.parse(`f() { x=1; }; a | b > c 2>&1 && { for i in 1 2; do c <<EOF\n$i\nEOF\n done; } || (cd d; [[ -n "$(e)" ]]) &\nexport Y=2`);
  const all = [tree.rootNode];
  for (let at = 0; at < all.length; at++) all.push(...(all[at] as typeof tree.rootNode).children);
  assert.ok(all.length > 60);
  for (const node of all) assert.is(parentOf(node)?.id, node.parent?.id, node.type);
  const prototype = Object.getPrototypeOf(tree.rootNode);
  const parent = Object.getOwnPropertyDescriptor(prototype, "parent") as PropertyDescriptor;
  let asked = 0;
  Object.defineProperty(prototype, "parent", {
    ...parent,
    get() {
      asked++;
      return parent.get?.call(this);
    },
  });
  try {
    const chain = `${"a && export X=1 && sort < in.txt && ".repeat(300)}echo x | cat > free.txt`;
    assert.equal(await writes(box, chain), ["free.txt"]);
    assert.equal(await writes(box, `${chain} && rm u.ts`), ["free.txt", "u.ts"]);
  } finally {
    Object.defineProperty(prototype, "parent", parent);
  }
  assert.ok(asked < 20, `the grammar was asked for ${asked} parents over 1,800 commands`);
});

Heredocs("should answer a Codex command in time whose long line names, over and over, programs that may take typed commands", ({ box }) => {
  // The terminal rule's look at the words (shell-terminal.ts): from each `git` to the end of the line and back, a regex took minutes.
  const codex = (command: string) => decision(box, "codex", { tool_name: "Bash", tool_input: { command } });
  for (const unit of ["git add -x ", "perl -x ", "git tag x "]) assert.is(codex(line(200_000, unit)), "allow", unit);
  assert.is.not(codex(line(200_000, "python3 -m x ")), "no answer"); // (its module's line, read again, is past the text the walk reads: any file)
  assert.is(codex(`${line(200_000, "git add -x ")}; vim`), "deny", "a program that takes typed commands after them");
});

Heredocs("should read a Codex patch with a long run of spaces in a header line once, and judge its paths", ({ box }) => {
  const codex = (patch: string) => decision(box, "codex", { tool_name: "apply_patch", tool_input: { command: patch } });
  // `\s*$` after a lazy path, and `[ ]+$`, looked again from each space of the run: 100 KB took minutes.
  const spaces = " ".repeat(100_000);
  assert.is(codex(`*** Begin Patch\n*** Update File: u.ts\n@@\n-a\n+b\n*** Add File: x${spaces}y\n+z\n*** End Patch`), "deny", "u.ts is held");
  assert.is(codex(`*** Begin Patch\n*** Add File: free.ts${spaces}\n+z\n*** End Patch`), "allow", "trailing spaces are no part of the path");
});

Heredocs.run();

const Symbols = suite<Context>("claims hook and take: a file the symbol grammar is slow on");
Symbols.before.each((context) => {
  context.box = heldBox();
});
Symbols.after.each((context) => context.box.cleanup());

Symbols("should judge an edit of a file it cannot read in time as touching the held symbol, and refuse the take of one", ({ box }) => {
  // `/[` repeated costs the typescript grammar the square of its length (100 KB: minutes).
  const file = join(box.project, "slow.ts");
  const functions = "export function keep() { return 1; }\nexport function other() { return 2; }\n";
  writeFileSync(file, functions);
  assert.is(claims(["take", `${file}#keep`, "--dir", box.dir, "--holder", "other", "--purpose", "rounding"]).code, 0);
  writeFileSync(file, `${functions}${line(100_000, "/[")}\n`);
  const edit = () => decision(box, "claude", { tool_name: "Edit", tool_input: { file_path: file, old_string: "return 2;", new_string: "return 3;" } });
  assert.is(edit(), "deny");
  const taken = claims(["take", `${file}#other`, "--dir", box.dir, "--holder", "s2"]);
  assert.is(taken.code, 2);
  assert.match(taken.stderr, /could not be read for its symbols within 3 s .*; claim the whole file instead\.\n$/);
  // A file the grammar reads in time: an edit of another function passes.
  writeFileSync(file, `${functions}${"export const x = 1;\n".repeat(5000)}`);
  assert.is(edit(), "allow");
});

Symbols("should answer an edit touching thousands of symbols in time, claiming for the session the few it touches and none past 64", ({ box }) => {
  const file = join(box.project, "big.ts");
  writeFileSync(file, `export function keep() { return 1; }\n${Array.from({ length: 3000 }, (_, at) => `export const v${at} = "old";`).join("\n")}\n`);
  assert.is(claims(["take", `${file}#keep`, "--dir", box.dir, "--holder", "other", "--purpose", "rounding"]).code, 0);
  const edit = (old_string: string, replace_all = false) =>
    decision(box, "claude", { tool_name: "Edit", tool_input: { file_path: file, old_string, new_string: old_string.replace("old", "new"), ...(replace_all && { replace_all: true }) } });
  const mine = () => (JSON.parse(claims(["status", "--dir", box.dir, "--json"]).stdout).claims as { target: string; holder: string }[]).filter((claim) => claim.holder !== "other").map((claim) => claim.target.replace(`${file}#`, ""));
  // Each symbol's take parsed the whole file again, and each occurrence's line was counted from the top: 3 minutes.
  assert.is(edit('"old"', true), "allow", "keep is not touched");
  assert.equal(mine(), [], "3,000 symbols: more than a write claims");
  assert.is(edit('v7 = "old"'), "allow");
  assert.equal(mine(), ["v7"]);
  assert.is(edit("return 1;"), "deny", "keep is held");
  // One that touches the held symbol among 20,000 others: refused, in time.
  writeFileSync(file, `export function keep() { return "old"; }\n${Array.from({ length: 20_000 }, (_, at) => `export const v${at} = "old";`).join("\n")}\n`);
  assert.is(edit('"old"', true), "deny");
});

Symbols.run();
