// The one declaration of the verbs' flags (src/cli/flags.ts) and what is made from it: the keys
// commander hands the actions, the fast path's reading, the spellings library errors use, and the
// command line hookCommand writes into agents' settings.
import { Option } from "commander";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { VERBS, type Flag } from "../../src/cli/flags.js";
import { readFast } from "../../src/cli/fast.js";
import { hookCommand } from "../../src/hooks/config.js";
import { flagSpelling, type OptionName } from "../../src/os/option-names.js";
import { claims } from "../helpers.js";

const declared = Object.entries(VERBS).flatMap(([verb, { flags }]) => Object.entries(flags as Record<string, Flag>).map(([key, flag]) => ({ verb, key, flag })));

const Declaration = suite("the flag declaration");

Declaration("should key each flag by the name commander gives its value", () => {
  for (const { verb, key, flag } of declared) {
    assert.is(new Option(flag.long).attributeName(), key, `${verb} ${flag.long}`);
  }
});

Declaration("should declare every option that library errors name, spelled as they spell it", () => {
  // Every OptionName, no more and no fewer: tsc checks this object against the type.
  const named = { dir: true, holder: true, purpose: true, ttl: true, wait: true, queue: true, partial: true, force: true, creating: true, idempotencyKey: true, to: true, since: true, token: true, via: true } satisfies Record<OptionName, true>;
  for (const name of Object.keys(named)) {
    const flag = declared.find(({ key }) => key === name)?.flag;
    assert.ok(flag, `no verb declares ${name}`);
    assert.is(flag.long, flagSpelling(name));
  }
});

Declaration.run();

const Fast = suite("the fast path's reading");

Fast("should read the flags marked fast into the keys commander uses", () => {
  assert.equal(readFast(VERBS.take.flags, ["a", "-p", "why", "b", "--dir", "/d", "--json"], false), {
    positionals: ["a", "b"],
    values: { purpose: "why", dir: "/d", json: true },
  });
  assert.equal(readFast(VERBS.hook.flags, ["--no-auto-take", "--claim-ttl", "60"], true), { positionals: [], values: { autoTake: false, claimTtl: "60" } });
});

Fast("should leave to commander every other shape", () => {
  for (const args of [["a", "--shared"], ["a", "--dir=/d"], ["a", "--"], ["a", "-h"], ["a", "--ttl"], ["a", "-pwhy"], ["a", "--token", "1"], ["a", "--dir", "/d", "--dir", "/e"]]) {
    assert.is(readFast(VERBS.take.flags, args, false), undefined, args.join(" "));
  }
  assert.is(readFast(VERBS.hook.flags, ["--json"], true), undefined);
  assert.is(readFast(VERBS.hook.flags, ["--codex", "/bin/codex"], true), undefined);
});

Fast("should take the last of a repeated value where repeats are allowed, as commander does", () => {
  assert.equal(readFast(VERBS.hook.flags, ["--dir", "/d", "--dir", "/e"], true)?.values, { dir: "/e" });
});

Fast.run();

const HookCommand = suite("the hook's command line");

HookCommand("should write only flags the fast path reads back as the same options", () => {
  const options = { autoTake: false, failClosed: true, subagentHolders: true, claimTtl: 60, dir: "/claims" };
  const [, , verb, agent, ...args] = hookCommand("claude", process.argv[1] as string, options).split(" ");
  assert.equal([verb, agent], ["hook", "claude"]);
  assert.equal(readFast(VERBS.hook.flags, args, true), { positionals: [], values: { ...options, claimTtl: "60" } });
});

HookCommand.run();

const Retired = suite("a flag that does nothing any more: --merge-subagents");

Retired("should be left out of claims hook --help", () => {
  const help = claims(["hook", "--help"]);
  assert.is(help.code, 0);
  assert.match(help.stdout, /--subagent-holders/);
  assert.not.match(help.stdout, /merge-subagents/);
});

Retired("should still be accepted by the fast path and by commander, as older settings files pass it", () => {
  assert.equal(readFast(VERBS.hook.flags, ["--merge-subagents", "--dir", "/d"], true), { positionals: [], values: { mergeSubagents: true, dir: "/d" } });
  const hook = claims(["hook", "claude", "--merge-subagents"]);
  assert.equal([hook.code, hook.stderr], [0, ""], "an empty event passes");
  const printed = claims(["hook", "print-config", "claude", "--merge-subagents"]);
  assert.is(printed.code, 0, printed.stderr);
  assert.not.match(printed.stdout, /merge-subagents/, "and is not written into new settings");
});

Retired.run();
