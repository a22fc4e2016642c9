// Experiment (bench/experiments/run.sh copies this beside a built dist/ and bundles it): a CLI
// entry that answers the hot calls without commander — `take`, `release`, `check` with only
// targets and --dir/--holder/--purpose, and `hook claude [--dir D]` — and hands anything else to
// the real CLI (dist/cli.js, loaded only then). It measures what skipping commander (and the
// child_process/net/dgram builtins it requires at load) is worth; it is not a finished CLI: no
// --json, no colour, human output only.
import { readFileSync } from "node:fs";

/** Plain `verb targets... [--flag value]...` with only the given flags, or undefined. */
function simple(args, valued) {
  const flags = {};
  const targets = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith("-")) {
      targets.push(arg);
      continue;
    }
    const name = arg.replace(/^--?/, "");
    if (!valued.includes(name) || i + 1 >= args.length) return undefined;
    flags[name === "p" ? "purpose" : name] = args[++i];
  }
  return { flags, targets };
}

async function fast(verb, rest) {
  if (verb === "hook" && rest[0] === "claude") {
    const parsed = simple(rest.slice(1), ["dir"]);
    if (!parsed || parsed.targets.length > 0) return false;
    const { hook } = await import("./dist/commands/hook.js");
    const input = process.stdin.isTTY ? "" : readFileSync(0, "utf8");
    const answer = await hook({ agent: "claude", input, autoTake: true, failClosed: false, mergeSubagents: false, ...(parsed.flags.dir && { dir: parsed.flags.dir }) });
    process.stdout.write(answer.stdout);
    process.stderr.write(answer.stderr);
    process.exitCode = answer.exitCode;
    return true;
  }
  if (!["take", "release", "check"].includes(verb)) return false;
  const parsed = simple(rest, ["dir", "holder", "purpose", "p"]);
  if (!parsed || (parsed.targets.length === 0 && verb !== "release")) return false;
  const common = { ...(parsed.flags.dir && { dir: parsed.flags.dir }), ...(parsed.flags.holder && { holder: parsed.flags.holder }), targets: parsed.targets };
  const { plain, renderTake, renderRelease, renderCheck } = await import("./dist/render.js");
  let lines;
  if (verb === "take") {
    const { take } = await import("./dist/commands/take.js");
    const result = await take({ ...common, ...(parsed.flags.purpose !== undefined && { purpose: parsed.flags.purpose }) });
    lines = renderTake(result, plain, parsed.targets);
    process.exitCode = result.refused.length > 0 ? 3 : 0;
  } else if (verb === "release") {
    const { release } = await import("./dist/commands/release.js");
    const result = release(common);
    lines = renderRelease(result, plain);
    process.exitCode = result.lost.length > 0 ? 4 : 0;
  } else {
    const { check } = await import("./dist/commands/check.js");
    const result = check(common);
    lines = renderCheck(result, plain);
    process.exitCode = result.refused.length > 0 ? 3 : 0;
  }
  process.stdout.write(`${lines.join("\n")}\n`);
  return true;
}

export async function main(argv = process.argv.slice(2)) {
  try {
    if (await fast(argv[0], argv.slice(1))) return;
  } catch (error) {
    const { ClaimsError } = await import("./dist/errors.js");
    if (!(error instanceof ClaimsError)) throw error;
    process.stderr.write(`claims: ${error.message}\n`);
    process.exitCode = error.exitCode;
    return;
  }
  const { main: cli } = await import("./dist/cli.js");
  await cli(argv);
}
