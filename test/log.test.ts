import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { handover } from "../src/commands/handover.js";
import { followLog, log } from "../src/commands/log.js";
import { release } from "../src/commands/release.js";
import { take } from "../src/commands/take.js";
import { appendLog, LOG_FILE, logFiles, logWriter, ROTATE_BYTES } from "../src/protocol/log.js";
import { claims, claimsAsync, freshLibraryContext, iso, readJson, SECOND, T0, type LibraryContext } from "./helpers.js";

const Record = suite<LibraryContext>("the log");
Record.before.each(freshLibraryContext);
Record.after.each((context) => context.box.cleanup());

Record("should record a take, a refusal and a takeover with who and when", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["x"], purpose: "first", now: T0 });
  await take({ ...opts, holder: "b", targets: ["x"], now: T0 + 10 * SECOND });
  await take({ ...opts, holder: "c", targets: ["x"], purpose: "late", now: T0 + 3600 * SECOND });
  const entries = log({ ...opts, now: T0 + 3601 * SECOND }).entries.map(({ at, event, target, holder, other }) => ({ at, event, target, holder, other }));
  assert.equal(entries, [
    { at: iso(T0), event: "take", target: "x", holder: "a", other: undefined },
    { at: iso(T0 + 10 * SECOND), event: "refused", target: "x", holder: "b", other: "a" },
    { at: iso(T0 + 3600 * SECOND), event: "takeover", target: "x", holder: "c", other: "a" },
  ]);
});

Record("should stamp a take's line with its second rounded down and its claim rounded up, and say so in log --help", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["x"], now: T0 + 400 });
  assert.is(log({ ...opts, now: T0 + SECOND }).entries[0]?.at, iso(T0), "the log: when it happened");
  const claim = readJson(join(opts.dir, "x.json"));
  assert.equal([claim.taken_at, claim.heartbeat_at], [iso(T0 + SECOND), iso(T0 + SECOND)], "the claim: a lease lasts its whole TTL");
  const help = claims(["log", "--help"]).stdout.replace(/\s+/g, " ");
  assert.match(help, /Times are when each change happened, rounded down to the second\. A claim's taken_at and heartbeat_at \(and a grant's time in status\) are rounded up/);
  assert.match(help, /they may read one second later than the log line of the same take\. See docs\/PROTOCOL\.md, section 8b\./);
});

Record("should record a handover or take --queue that queues as refused first, then queued", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["x"], purpose: "first", now: T0 });
  await handover({ ...opts, holder: "b", target: "x", purpose: "next", now: T0 + SECOND });
  await take({ ...opts, holder: "c", targets: ["x"], queue: true, now: T0 + 2 * SECOND });
  await handover({ ...opts, holder: "b", target: "x", now: T0 + 3 * SECOND });
  const entries = log({ ...opts, now: T0 + 4 * SECOND }).entries.map(({ at, event, holder, other }) => ({ at, event, holder, other }));
  assert.equal(entries, [
    { at: iso(T0), event: "take", holder: "a", other: undefined },
    { at: iso(T0 + SECOND), event: "refused", holder: "b", other: "a" },
    { at: iso(T0 + SECOND), event: "queue", holder: "b", other: undefined },
    { at: iso(T0 + 2 * SECOND), event: "refused", holder: "c", other: "a" },
    { at: iso(T0 + 2 * SECOND), event: "refused", holder: "c", other: "b" },
    { at: iso(T0 + 2 * SECOND), event: "queue", holder: "c", other: undefined },
    { at: iso(T0 + 3 * SECOND), event: "refused", holder: "b", other: "a" },
  ], "a waiter queueing again keeps its place: refused, but not queued anew");
});

Record("should note a refusal only in a log that exists, and otherwise leave every file as it was", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["x"], purpose: "first", now: T0 });
  rmSync(join(opts.dir, LOG_FILE));
  const before = readdirSync(opts.dir).sort().map((name) => [name, statSync(join(opts.dir, name)).mtimeMs]);
  const refused = await take({ ...opts, holder: "b", targets: ["x", "y"], now: T0 + SECOND });
  assert.equal(refused.refused.map((holding) => holding.holder), ["a"]);
  assert.equal(readdirSync(opts.dir).sort().map((name) => [name, statSync(join(opts.dir, name)).mtimeMs]), before, "no file created, none changed");
  writeFileSync(join(opts.dir, LOG_FILE), "");
  await take({ ...opts, holder: "b", targets: ["x"], now: T0 + 2 * SECOND });
  assert.equal(log({ ...opts, now: T0 + 3 * SECOND }).entries.map(({ event, holder }) => [event, holder]), [["refused", "b"]]);
});

Record("should filter by target, holder and time", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["x", "y"], now: T0 });
  release({ ...opts, holder: "a", targets: ["y"], now: T0 + 600 * SECOND });
  assert.equal(log({ ...opts, target: "y", now: T0 }).entries.map((entry) => entry.event), ["take", "release"]);
  assert.equal(log({ ...opts, holder: "nobody", now: T0 }).entries, []);
  assert.equal(log({ ...opts, since: "5m", now: T0 + 601 * SECOND }).entries.map((entry) => entry.event), ["release"]);
  assert.throws(() => log({ ...opts, since: "yesterday", now: T0 }), /^since "yesterday" is neither/);
});

Record("should take --since as a date alone, or a time without seconds, as UTC, and refuse a day the month lacks", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["x"], now: T0 }); // 2026-08-14T21:02:11Z
  const since = (text: string) => claims(["log", "--dir", opts.dir, "--since", text, "--json"]);
  const events = (text: string) => JSON.parse(since(text).stdout).entries.map((entry: { event: string }) => entry.event);
  assert.equal(events("2026-08-14"), ["take"]);
  assert.equal(events("2026-08-15"), []);
  assert.equal(events("2026-08-14T21:02"), ["take"]);
  assert.equal(events("2026-08-14 21:03"), []);
  assert.equal(events("2026-08-14T21:02:11Z"), ["take"]);
  const bad = claims(["log", "--dir", opts.dir, "--since", "2026-02-30"]);
  assert.equal([bad.code, bad.stderr], [2, 'claims: --since "2026-02-30" is neither an age like 10m, 2h, 7d nor a UTC time like 2026-08-14T21:02:11Z (or a date, 2026-08-14).\n']);
});

Record("should rotate by renaming, never rewriting, and still read every entry", ({ opts }) => {
  mkdirSync(opts.dir, { recursive: true });
  const purpose = "p".repeat(400);
  let lines = 0;
  const write = () => appendLog(opts.dir, T0 + lines * SECOND, { event: "take", target: `t${lines++}`, holder: "a", purpose });
  while (logFiles(opts.dir).length < 2 && lines < (2 * ROTATE_BYTES) / 400) write();
  for (let i = 0; i < 5; i++) write();
  assert.is(logFiles(opts.dir).length, 2);
  assert.is(log({ ...opts, now: T0 }).entries.length, lines);
});

Record("should append through one open log line by line, to the log its name leads to when another process rotated or removed it", ({ opts }) => {
  mkdirSync(opts.dir, { recursive: true });
  const writer = logWriter(opts.dir);
  const purpose = "p".repeat(400);
  let lines = 0;
  const write = () => writer.append(T0 + lines * SECOND, { event: "sweep", target: `t${lines++}`, holder: "a", purpose });
  const current = join(opts.dir, LOG_FILE);
  write();
  const text = readFileSync(current, "utf8");
  assert.ok(text.endsWith("\n") && text.split("\n").length === 2, "the line is there before the writer is closed");
  while (logFiles(opts.dir).length < 2 && lines < (2 * ROTATE_BYTES) / 400) write();
  assert.is(logFiles(opts.dir).length, 2, "rotated at 1 MiB");
  write();
  const rotated = join(opts.dir, "log-20990101T000000000Z-1-abcdef.jsonl");
  renameSync(current, rotated); // another process rotates
  const rotatedSize = statSync(rotated).size;
  write();
  assert.is(statSync(rotated).size, rotatedSize, "nothing more in the file another process rotated");
  assert.is(readFileSync(current, "utf8").split("\n").length, 2, "the next line starts the new log, where log --follow reads on");
  rmSync(current); // removed by hand
  write();
  assert.ok(readFileSync(current, "utf8").includes(`"t${lines - 1}"`), "a removed log is created again by the next line");
  writer.close();
  for (const file of logFiles(opts.dir)) assert.ok(statSync(file).size <= ROTATE_BYTES + 1024, `${file} stayed near 1 MiB`);
  const entries = log({ ...opts, now: T0 }).entries;
  assert.equal(entries.map((entry) => entry.target), Array.from({ length: lines }, (_, i) => `t${i}`).filter((_, i) => i !== lines - 2), "every line but the one removed with its log, in order");
});

Record("should note a refusal made right after a rotation, in the new log the rotation starts", ({ box }) => {
  mkdirSync(box.dir, { recursive: true });
  const taken = claims(["take", "name:x", "--holder", "a", "--dir", box.dir]);
  assert.is(taken.code, 0, taken.stderr);
  // The log a line short of 1 MiB, as a long-used directory's is: the next change rotates it.
  const filler = (length: number) => `${JSON.stringify({ at: "2026-01-01T00:00:00Z", event: "take", target: "filler", holder: "z", purpose: "p".repeat(length), pid: 1 })}\n`;
  const current = join(box.dir, LOG_FILE);
  let text = readFileSync(current, "utf8");
  while (text.length + filler(400).length < ROTATE_BYTES - 40) text += filler(400);
  text += filler(ROTATE_BYTES - 40 - text.length - filler(0).length);
  writeFileSync(current, text); // 40 bytes short of 1 MiB
  assert.is(statSync(current).size, ROTATE_BYTES - 40);
  assert.is(claims(["take", "name:y", "--holder", "a", "--purpose", "rotates", "--dir", box.dir]).code, 0);
  const refused = claims(["take", "name:x", "--holder", "b", "--purpose", "refused right after", "--dir", box.dir]);
  assert.is(refused.code, 3, refused.stdout);
  const entries = JSON.parse(claims(["log", "--dir", box.dir, "--since", "1d", "--json"]).stdout).entries; // the filler is older
  assert.equal(
    entries.map(({ event, target, holder }: { event: string; target: string; holder: string }) => ({ event, target, holder })),
    [
      { event: "take", target: "x", holder: "a" },
      { event: "take", target: "y", holder: "a" },
      { event: "refused", target: "x", holder: "b" },
    ],
  );
  assert.is(logFiles(box.dir).length, 2, "one rotated log and the new one");
});

Record("should find a file's or directory's entries after it is gone, by the word or the path that named it", ({ box }) => {
  const run = (...args: string[]) => claims([...args, "--dir", box.dir], { cwd: box.project });
  writeFileSync(join(box.project, "gen.txt"), "x\n");
  mkdirSync(join(box.project, "build"));
  assert.is(run("take", "gen.txt", "build", "--holder", "a", "--purpose", "regenerate").code, 0);
  assert.is(run("release", "--holder", "a").code, 0);
  assert.is(run("take", "name:gen.txt", "--holder", "n").code, 0);
  rmSync(join(box.project, "gen.txt"));
  rmSync(join(box.project, "build"), { recursive: true });
  const targetsOf = (...args: string[]) => {
    const result = run("log", ...args, "--json");
    assert.is(result.code, 0, result.stderr);
    return JSON.parse(result.stdout).entries.map((entry: { event: string; target: string }) => `${entry.event} ${entry.target}`);
  };
  const file = join(box.project, "gen.txt");
  const directory = `${join(box.project, "build")}/`;
  assert.equal(targetsOf("gen.txt"), [`take ${file}`, `release ${file}`, "take gen.txt"], "the word: the file it named, and the name");
  assert.equal(targetsOf("./gen.txt"), [`take ${file}`, `release ${file}`], "the path: the file that was");
  assert.equal(targetsOf("name:gen.txt"), ["take gen.txt"], "name: the name alone");
  assert.equal(targetsOf("build"), [`take ${directory}`, `release ${directory}`], "a directory's word: the directory it was");
  assert.equal(targetsOf("./build"), [`take ${directory}`, `release ${directory}`], "a path not there now: the directory that was");
  assert.equal(run("log", "build").stdout.split("\n").filter(Boolean).length, 2, "and so in the human output");
});

Record("should read a path's entries where its claims live: the claims directory its package's .claims names", ({ box }) => {
  const pkg = join(box.project, "pkg");
  mkdirSync(pkg);
  writeFileSync(join(pkg, ".claims"), JSON.stringify({ dir: "../../pkg-claims" }));
  writeFileSync(join(pkg, "x.ts"), "export const x = 1;\n");
  const env = { XDG_STATE_HOME: join(box.root, "state") }; // the caller's own directory: the default, unpinned
  const run = (...args: string[]) => claims(args, { cwd: box.project, env });
  assert.is(run("take", "pkg/x.ts", "--holder", "a", "--purpose", "in the package").code, 0);
  assert.is(run("take", "pkg/x.ts", "--holder", "b").code, 3);
  assert.ok(existsSync(join(box.root, "pkg-claims", LOG_FILE)), "recorded in the package's claims directory");
  const read = (cwd: string, target: string) => {
    const result = claims(["log", target, "--json"], { cwd, env });
    assert.is(result.code, 0, result.stderr);
    return JSON.parse(result.stdout).entries.map((entry: { event: string; holder: string }) => `${entry.event} ${entry.holder}`);
  };
  assert.equal(read(box.project, "pkg/x.ts"), ["take a", "refused b"], "from the repository's root");
  assert.equal(read(pkg, "x.ts"), ["take a", "refused b"], "as from the package itself");
  const human = run("log", "pkg/x.ts");
  assert.match(human.stdout, /take +.*pkg\/x\.ts +a +"in the package"/);
});

Record("should record each claim a sweep removes as its own whole line, beside concurrent takers", async ({ box, opts }) => {
  const targets = Array.from({ length: 200 }, (_, i) => `old${i}`);
  await take({ ...opts, holder: "gone", targets, purpose: "x".repeat(200), now: T0 });
  // Stale by the real clock too: a claim is stale only when its file is old as well.
  const old = new Date(Date.now() - 7200 * 1000);
  for (const name of readdirSync(box.dir).filter((name) => name.startsWith("old"))) utimesSync(join(box.dir, name), old, old);
  const jobs = [
    claimsAsync(["sweep", "--dir", box.dir, "--json"]),
    ...Array.from({ length: 6 }, (_, i) => claimsAsync(["take", `new${i}`, "--holder", `h${i}`, "--purpose", "y".repeat(300), "--dir", box.dir])),
  ];
  const [swept] = await Promise.all(jobs);
  assert.is(JSON.parse(swept?.stdout ?? "").removed.length, 200);
  const lines = readFileSync(join(box.dir, LOG_FILE), "utf8").trimEnd().split("\n").map((line) => JSON.parse(line) as { event: string; target: string });
  assert.equal(lines.filter((line) => line.event === "sweep").map((line) => line.target).sort(), [...targets].sort());
  assert.is(lines.filter((line) => line.event === "take").length, 206, "the old take's 200 and the six new ones, none lost");
});

Record("should never block a verb when the log cannot be written", async ({ opts }) => {
  mkdirSync(join(opts.dir, LOG_FILE), { recursive: true }); // a directory where the log belongs
  assert.is((await take({ ...opts, holder: "a", targets: ["x"], now: T0 })).granted.length, 1);
});

Record("should say the log cannot be read rather than answer that nothing happened", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["x"], now: T0 });
  rmSync(join(opts.dir, LOG_FILE));
  mkdirSync(join(opts.dir, LOG_FILE)); // unreadable as a file (tests run as root, where no permission stops a read)
  assert.throws(() => log({ ...opts, now: T0 }), (error: Error) => /^The log .*log\.jsonl is a directory, not a file; move it out of the claims directory/.test(error.message));
  const notADirectory = join(opts.dir, "x.json");
  assert.throws(() => log({ ...opts, dir: notADirectory, now: T0 }), (error: Error) => /is not a directory/.test(error.message));
  assert.equal(log({ ...opts, dir: join(opts.dir, "nowhere"), now: T0 }).entries, [], "a directory not created yet has recorded nothing");
});

Record("should skip damaged lines and keep the rest", async ({ opts }) => {
  await take({ ...opts, holder: "a", targets: ["x"], now: T0 });
  writeFileSync(join(opts.dir, LOG_FILE), `${readFileSync(join(opts.dir, LOG_FILE), "utf8")}{"torn\n`);
  await take({ ...opts, holder: "a", targets: ["y"], now: T0 });
  assert.equal(log({ ...opts, now: T0 }).entries.map((entry) => entry.target), ["x", "y"]);
  // Counted, and said: a log that reads short for damage is not silently a short record.
  assert.is(log({ ...opts, now: T0 }).skipped_lines, 1);
  const shown = claims(["log", "--dir", opts.dir as string]);
  assert.is(shown.code, 0);
  assert.is(shown.stderr, "claims: note: 1 line of the log is no entry (damaged, or another program's) and was skipped\n");
});

Record("should survive concurrent writers without interleaved lines", async ({ box }) => {
  const jobs = Array.from({ length: 12 }, (_, i) =>
    claimsAsync(["take", `t${i % 3}`, `u${i}`, "--holder", `h${i}`, "--purpose", "x".repeat(300), "--dir", box.dir, "--partial"]),
  );
  await Promise.all(jobs);
  const text = readFileSync(join(box.dir, LOG_FILE), "utf8");
  const lines = text.trimEnd().split("\n");
  for (const line of lines) JSON.parse(line); // every line is one whole entry
  // 12 takes of the u targets, and for each of t0..t2 one take and three refusals: nothing lost either.
  assert.is(lines.length, 24);
});

Record.run();

const Follow = suite<LibraryContext>("log --follow");
Follow.before.each(freshLibraryContext);
Follow.after.each((context) => context.box.cleanup());

Follow("should print every entry across a rotation, the old file's last lines included", async ({ opts }) => {
  mkdirSync(opts.dir, { recursive: true });
  appendLog(opts.dir, T0, { event: "take", target: "before", holder: "a" });
  const seen: string[] = [];
  const stop = new AbortController();
  const following = followLog(opts, (entry) => seen.push(entry.target), stop.signal);
  const purpose = "p".repeat(400);
  let written = 0;
  while (logFiles(opts.dir).length < 2 && written < 4000) appendLog(opts.dir, T0, { event: "take", target: `t${written++}`, holder: "a", purpose });
  appendLog(opts.dir, T0, { event: "take", target: "after", holder: "a" });
  for (let i = 0; i < 100 && !seen.includes("after"); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  stop.abort();
  await following;
  assert.equal(seen, [...Array.from({ length: written }, (_, i) => `t${i}`), "after"]);
});

Follow.run();
