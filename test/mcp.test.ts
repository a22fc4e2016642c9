// `claims mcp` as a client meets it: the real server as a child process over stdio, driven by the
// MCP SDK's own client, beside the real CLI on the same claims directory.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, linkSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { claimFileName } from "../src/targets/target.js";
import { BIN, claims, cleanEnv, readJson, sandbox, writeClaimFile, type Sandbox } from "./helpers.js";
import { connect, type Connection } from "./mcp/connect.js";

interface Context {
  box: Sandbox;
  env: Record<string, string>;
  open: Connection[];
  /** A server on the sandbox's claims directory, closed after the test. */
  server(options?: { env?: Record<string, string>; args?: string[]; name?: string }): Promise<Connection>;
  /** The CLI on the same directory, from the project. */
  cli(args: string[], env?: Record<string, string>): ReturnType<typeof claims>;
}

function fresh(context: Context): void {
  context.box = sandbox();
  context.env = { CLAIMS_DIR: context.box.dir };
  context.open = [];
  context.server = async (options = {}) => {
    const connection = await connect({ cwd: context.box.project, env: { ...context.env, ...options.env }, args: options.args ?? [], name: options.name ?? "test-client" });
    context.open.push(connection);
    return connection;
  };
  context.cli = (args, env = {}) => claims(args, { cwd: context.box.project, env: { ...context.env, ...env } });
  writeFileSync(join(context.box.project, "a.ts"), "export const a = 1;\n");
  writeFileSync(join(context.box.project, "utils.ts"), "export function formatPrice(n: number) {\n  return n.toFixed(2);\n}\n");
}

async function closeAll(context: Context): Promise<void> {
  await Promise.all(context.open.map((connection) => connection.close().catch(() => {})));
  context.box.cleanup();
}

const queueFiles = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((name) => name.startsWith(".queue-")) : []);

async function until(what: string, condition: () => boolean): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`gave up waiting for ${what}`);
}

const plus = (timestamp: string, seconds: number) => new Date(Date.parse(timestamp) + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");

// ---------------------------------------------------------------------------------------------

const Tools = suite<Context>("mcp: tools/list");
Tools.before.each(fresh);
Tools.after.each(closeAll);

Tools("should list exactly the documented tools, with the reference systems' argument names and defaults", async (context) => {
  const server = await context.server();
  const { tools } = await server.client.listTools();
  const byName = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
  assert.equal(Object.keys(byName).sort(), ["check", "claim", "file_reservation_paths", "get_status", "handover", "release", "release_file_reservations", "renew_file_reservations"]);
  const shape = (name: string) => {
    const schema = byName[name]?.inputSchema as { type: string; properties: Record<string, any>; required?: string[] };
    assert.is(schema.type, "object");
    return { keys: Object.keys(schema.properties).sort(), required: (schema.required ?? []).sort(), properties: schema.properties };
  };
  const claim = shape("claim");
  assert.equal(claim.keys, ["actor", "creating", "intent", "paths", "queue", "wait"]);
  assert.equal(claim.required, ["paths"]);
  assert.equal(claim.properties.paths.type, "array");
  assert.equal(claim.properties.paths.items.type, "string");
  assert.is(claim.properties.wait.type, "number");
  assert.ok(/Capped at 120/.test(claim.properties.wait.description));
  assert.is(claim.properties.queue.type, "boolean");
  assert.equal(shape("release").keys, ["actor", "paths"]);
  assert.equal(shape("release").required, []);
  assert.equal(shape("get_status").keys, ["actor"]);
  assert.equal(shape("check").required, ["paths"]);
  assert.equal(shape("handover").keys, ["actor", "creating", "intent", "path", "to"]);
  assert.equal(shape("handover").required, ["path"]);
  const reserve = shape("file_reservation_paths");
  assert.equal(reserve.keys, ["agent_name", "exclusive", "idempotency_key", "paths", "project_key", "reason", "ttl_seconds"]);
  assert.equal(reserve.required, ["agent_name", "paths", "project_key"]);
  assert.equal(reserve.properties.ttl_seconds, { ...reserve.properties.ttl_seconds, type: "integer", default: 3600, minimum: 1, maximum: 2592000 });
  assert.equal(reserve.properties.exclusive.default, true);
  const renew = shape("renew_file_reservations");
  assert.equal(renew.keys, ["agent_name", "extend_seconds", "file_reservation_ids", "paths", "project_key"]);
  assert.is(renew.properties.extend_seconds.default, 1800);
  assert.equal(shape("release_file_reservations").keys, ["agent_name", "file_reservation_ids", "paths", "project_key"]);
  for (const tool of tools) assert.ok((tool.description ?? "").length > 80, `${tool.name} explains itself to the agent`);
  assert.ok(/reconcile/i.test(byName.claim?.description ?? ""), "claim says how to reconcile");
});

Tools.run();

// ---------------------------------------------------------------------------------------------

const Claim = suite<Context>("mcp: claim");
Claim.before.each(fresh);
Claim.after.each(closeAll);

Claim("should grant a free file, write the claim file the CLI reads, and renew it when claimed again", async (context) => {
  const server = await context.server();
  const first = await server.call("claim", { paths: ["a.ts"], intent: "rename a", actor: "agent-1" });
  assert.is(first.isError, false);
  const target = join(context.box.project, "a.ts");
  assert.equal(first.value.results.map((entry: any) => [entry.path, entry.target, entry.granted]), [["a.ts", target, true]]);
  assert.is(first.value.actor, "agent-1");
  const file = readJson(join(context.box.dir, claimFileName(target)));
  assert.equal([file.holder, file.purpose], ["agent-1", "rename a"]);
  assert.is(first.value.results[0].expiresAt, plus(file.heartbeat_at, 1800));
  const status = JSON.parse(context.cli(["status", "--json"]).stdout);
  assert.equal(status.claims.map((claim: any) => [claim.target, claim.holder]), [[target, "agent-1"]]);
  const again = await server.call("claim", { paths: [target], actor: "agent-1" });
  assert.is(again.value.results[0].renewed, true);
  assert.is(readJson(join(context.box.dir, claimFileName(target))).purpose, "rename a");
});

Claim("should meet a claim on a file's other name in a package given a .claims while the server ran", async (context) => {
  // A server runs for hours: where a hard-linked file's other names are claimed is looked up per
  // call, not once per process (a package's .claims written after the first call counts).
  const { project, root } = context.box;
  const env = { HOME: root };
  mkdirSync(join(project, ".git"));
  mkdirSync(join(project, "pkg"));
  linkSync(join(project, "a.ts"), join(project, "pkg", "b.ts"));
  const server = await context.server({ env });
  const first = await server.call("claim", { paths: ["a.ts"], actor: "agent-1" });
  assert.is(first.value.granted, true);
  assert.equal((await server.call("release", { actor: "agent-1" })).value.released, [join(project, "a.ts")]);
  writeFileSync(join(project, "pkg", ".claims"), JSON.stringify({ dir: join(root, "store-pkg") }));
  const other = claims(["take", "b.ts", "--holder", "other", "--purpose", "in pkg"], { cwd: join(project, "pkg"), env });
  assert.is(other.code, 0, other.stdout + other.stderr);
  const again = await server.call("claim", { paths: ["a.ts"], actor: "agent-1" });
  assert.is(again.value.granted, false, JSON.stringify(again.value));
  assert.match(again.value.results[0].reason, /held by other for "in pkg"/);
});

Claim("should show in get_status what the caller claimed, queued for and was granted in another project's own claims directory", async (context) => {
  // The server's own directory is the default one; a sibling project's .claims names another. A
  // grant there from the queue was never shown: the agent held a claim it was never told of.
  const { root } = context.box;
  const env = { HOME: join(root, "home"), CLAIMS_DIR: "" };
  const sibling = join(root, "proj2");
  mkdirSync(join(sibling, "src"), { recursive: true });
  writeFileSync(join(sibling, "src", "m.ts"), "export const m = 1;\n");
  writeFileSync(join(sibling, ".claims"), JSON.stringify({ dir: join(root, "store-proj2") }));
  const there = (...args: string[]) => claims(args, { cwd: sibling, env });
  assert.is(there("take", "src/m.ts", "--holder", "other", "--purpose", "in proj2").code, 0);
  const server = await context.server({ env });
  const path = join(sibling, "src", "m.ts");
  const queued = await server.call("claim", { paths: [path], queue: true, intent: "after other", actor: "q2" });
  assert.is(queued.value.results[0].queued, true, JSON.stringify(queued.value));
  const waiting = await server.call("get_status", { actor: "q2" });
  assert.equal(waiting.value.queued.map((note: { path: string; claimsDir: string }) => [note.path, note.claimsDir]), [[path, join(root, "store-proj2")]]);
  assert.is(there("release", "src/m.ts", "--holder", "other").code, 0);
  const granted = await server.call("get_status", { actor: "q2" });
  assert.equal(granted.value.grantedWhileWaiting.map((grant: { path: string }) => grant.path), [path]);
  const mine = granted.value.claims.filter((claim: { mine: boolean }) => claim.mine);
  assert.equal(mine.map((claim: { path: string; claimsDir: string }) => [claim.path, claim.claimsDir]), [[path, join(root, "store-proj2")]]);
  assert.equal((await server.call("get_status", { actor: "q2" })).value.grantedWhileWaiting, [], "shown once");
});

Claim("should refuse a path another holder has, naming holder, intent and expiry, and take nothing (all or nothing)", async (context) => {
  assert.is(context.cli(["take", "./a.ts", "--holder", "session-a", "--purpose", "align the lint rule"]).code, 0);
  const server = await context.server();
  const refused = await server.call("claim", { paths: ["a.ts", "name:free-name"], actor: "agent-2" });
  assert.is(refused.isError, false, "a refusal is an answer, not an error");
  assert.is(refused.value.granted, false);
  const [held, free] = refused.value.results;
  const claim = readJson(join(context.box.dir, claimFileName(join(context.box.project, "a.ts"))));
  assert.equal([held.granted, held.holder, held.holderIntent, held.holderExpiresAt], [false, "session-a", "align the lint rule", plus(claim.heartbeat_at, 1800)]);
  assert.match(held.reason, /held by session-a for "align the lint rule"/);
  assert.equal([free.path, free.granted], ["name:free-name", false]);
  assert.match(refused.value.message, /^REFUSED .*a\.ts: held by session-a/);
  assert.is(existsSync(join(context.box.dir, "free-name.json")), false, "nothing was taken");
});

Claim("should refuse a path a session pinning a directory of its own holds, and offer wait, not a queue that could not wait for it", async (context) => {
  // The CLI pins the sandbox's claims directory; this server pins none (its claims live in the default directory).
  assert.is(context.cli(["take", "./a.ts", "--holder", "session-a", "--purpose", "pinned work"]).code, 0);
  const home = join(context.box.root, "home");
  const server = await context.server({ env: { CLAIMS_DIR: "", HOME: home } });
  // The pinned take left its pointer where this server claims, in a default directory of the test's own home.
  assert.is(context.cli(["take", "./a.ts", "--holder", "session-a"], { HOME: home }).code, 0);
  const refused = await server.call("claim", { paths: ["a.ts"], actor: "agent-2" });
  assert.is(refused.value.granted, false, JSON.stringify(refused.value));
  assert.match(refused.value.results[0].reason, /held by session-a for "pinned work"/);
  assert.ok(refused.value.message.includes(`The claim is in the claims directory ${context.box.dir}, where a queue here cannot wait for it`), refused.value.message);
  assert.not.match(refused.value.message, /queue: true/);
});

Claim("should say when a claim in another claims directory expires by that claim's own TTL", async (context) => {
  assert.is(context.cli(["take", "./a.ts", "--holder", "session-a", "--ttl", "7200"]).code, 0);
  const home = join(context.box.root, "home");
  assert.is(context.cli(["take", "./a.ts", "--holder", "session-a", "--ttl", "7200"], { HOME: home }).code, 0);
  const server = await context.server({ env: { CLAIMS_DIR: "", HOME: home } });
  const expiry = plus(readJson(join(context.box.dir, claimFileName(join(context.box.project, "a.ts")))).heartbeat_at, 7200);
  const refused = await server.call("claim", { paths: ["a.ts"], actor: "agent-2" });
  assert.is(refused.value.results[0].holderExpiresAt, expiry, JSON.stringify(refused.value.results[0]));
  assert.is((await server.call("check", { paths: ["a.ts"], actor: "agent-2" })).value.refused[0].holderExpiresAt, expiry);
  const reserved = await server.call("file_reservation_paths", { project_key: context.box.project, agent_name: "agent-2", paths: ["a.ts"] });
  assert.is(reserved.value.conflicts[0].holders[0].expires_ts, expiry);
});

Claim("should say in warnings that an argument the tool does not have (purpose, ttl) was ignored", async (context) => {
  const server = await context.server();
  const named = await server.call("claim", { paths: ["a.ts"], purpose: "rename a", ttl: 5, actor: "agent-1" });
  assert.is(named.isError, false);
  assert.is(named.value.granted, true);
  assert.equal(named.value.warnings, ['claim has no argument "purpose", "ttl", so they were ignored; its arguments are paths, intent, creating, wait, queue, actor.']);
  assert.match(named.text, /"warnings"/, "the model reads it too");
  assert.is(readJson(join(context.box.dir, claimFileName(join(context.box.project, "a.ts")))).purpose, "", "the claim carries no purpose");
  const release = await server.call("release", { all: true, actor: "agent-1" });
  assert.equal(release.value.warnings, ['release has no argument "all", so it was ignored; its arguments are paths, actor.']);
  const plain = await server.call("claim", { paths: ["a.ts"], intent: "rename a", actor: "agent-1" });
  assert.is(plain.value.warnings, undefined, "none where every argument is the tool's");
});

Claim("should answer bad input with isError and one sentence, per-target reason and suggestion, and keep serving", async (context) => {
  const server = await context.server();
  const symbol = await server.call("claim", { paths: ["utils.ts#formatPrce", "a.ts"] });
  assert.is(symbol.isError, true);
  assert.is(symbol.text, `Target ${join(context.box.project, "utils.ts")}#formatPrce names nothing: the file declares no top-level \`formatPrce\`; did you mean \`formatPrice\`?`);
  const [bad, other] = symbol.value.results;
  assert.equal([bad.granted, bad.reason, bad.suggestion], [false, symbol.text, "formatPrice"]);
  assert.match(other.reason, /another path in this call is bad input/);
  const absent = await server.call("claim", { paths: ["a.ts", "not-there.ts"] });
  assert.is(absent.isError, true);
  const [fine, missingFile] = absent.value.results;
  assert.equal([missingFile.path, missingFile.reason], ["not-there.ts", absent.text], "the path the sentence is about");
  assert.match(fine.reason, /another path in this call is bad input/);
  const longer = await server.call("claim", { paths: ["a.ts", "a.ts.bak"] });
  assert.match(longer.value.results[0].reason, /another path in this call is bad input/, "a.ts is not named by the sentence about a.ts.bak");
  const both = await server.call("claim", { paths: ["a.ts"], wait: 5, queue: true });
  assert.equal([both.isError, both.text], [true, "wait and queue cannot be used together: wait blocks, queue returns at once."]);
  const missing = await server.call("claim", {});
  assert.equal([missing.isError, missing.value.error.code], [true, "BAD_INPUT"]);
  assert.match(missing.text, /^claim: paths is required: a list of paths/);
  const wrongType = await server.call("claim", { paths: "a.ts" });
  assert.is(wrongType.text, 'claim: paths must be a list of paths, e.g. ["src/config.ts", "docs/"]; got the string "a.ts".');
  const negative = await server.call("claim", { paths: ["a.ts"], wait: -1 });
  assert.match(negative.text, /^claim: wait must be seconds from 0/);
  const badActor = await server.call("claim", { paths: ["a.ts"], actor: "bad\nactor" });
  assert.match(badActor.text, /^actor must be 1 to 200 printable characters/);
  assert.is(existsSync(context.box.dir), false, "nothing was taken by any of them");
  const creating = await server.call("claim", { paths: ["utils.ts#formatCurrency"], creating: true, actor: "agent-3" });
  assert.equal([creating.isError, creating.value.granted], [false, true]);
});

Claim("should read a bare word as a path in the server's directory, one not there yet only with creating, and say what it took", async (context) => {
  const { project, dir } = context.box;
  const server = await context.server();
  // Not a name that protects nothing: without creating, told both readings, and nothing taken.
  const bare = await server.call("claim", { paths: ["build"], intent: "regenerating build output", actor: "agent-1" });
  assert.is(bare.isError, true, JSON.stringify(bare.value));
  assert.is(bare.text, `build names nothing in ${project}: pass creating: true to claim the path it will be there (./build/), or write name:build to claim a name.`);
  assert.equal([bare.value.results[0].path, bare.value.results[0].reason], ["build", bare.text]);
  assert.is(existsSync(dir), false, "nothing was taken");
  const created = await server.call("claim", { paths: ["build", "deploy"], creating: true, intent: "regenerating build output", actor: "agent-1" });
  assert.is(created.value.granted, true, JSON.stringify(created.value));
  assert.equal((created.value.warnings ?? []).filter((warning: string) => /changed nothing/.test(warning)), [], "creating made the bare words paths: no note that it changed nothing");
  assert.equal(
    created.value.results.map((entry: any) => [entry.path, entry.target, entry.kind]),
    [
      ["build", join(project, "build") + "/", "directory"],
      ["deploy", join(project, "deploy"), "path"],
    ],
  );
  // Another session's write there is refused, by the CLI and by check.
  assert.is(context.cli(["take", "./build/out.js", "--holder", "session-b"]).code, 3);
  const checked = await server.call("check", { paths: ["build", "deploy"], actor: "agent-2" });
  assert.equal([checked.value.mayWrite, checked.value.refused.map((entry: any) => entry.path)], [false, [join(project, "build") + "/", join(project, "deploy")]]);
  // A word naming a directory there is that directory; name: is a name.
  mkdirSync(join(project, "coverage"));
  const existing = await server.call("claim", { paths: ["coverage", "name:lint-lock"], actor: "agent-1" });
  assert.equal(
    existing.value.results.map((entry: any) => [entry.target, entry.kind]),
    [
      [join(project, "coverage") + "/", "directory"],
      ["lint-lock", "name"],
    ],
  );
  // Given back by the same words: the paths they were taken as, and the name a claim carries.
  const released = await server.call("release", { paths: ["build", "deploy", "lint-lock"], actor: "agent-1" });
  assert.equal([released.value.released.sort(), released.value.notHeld], [[join(project, "build") + "/", join(project, "deploy"), "lint-lock"].sort(), undefined]);
});

Claim("should answer a symbol of a named pipe as bad input at once, not block the server reading it", async (context) => {
  spawnSync("mkfifo", [join(context.box.project, "pipe.ts")]);
  const server = await context.server();
  // Nobody writes the pipe: a blocking open or read of it would stop the server (and its signal handlers) for good.
  const call = (name: string, args: Record<string, unknown>) => server.client.callTool({ name, arguments: args }, undefined, { timeout: 5000 }) as Promise<{ isError?: boolean; content: Array<{ text: string }> }>;
  const claimed = await call("claim", { paths: ["pipe.ts#render"] });
  assert.is(claimed.isError, true);
  assert.match(claimed.content[0]?.text ?? "", /pipe\.ts is not a regular file/);
  const reserved = await call("file_reservation_paths", { project_key: context.box.project, agent_name: "agent-1", paths: ["pipe.ts#render"] });
  assert.is(reserved.isError, true);
  assert.is((await call("claim", { paths: ["pipe.ts"] })).isError === true, false, "the pipe itself, as a whole file, is claimed as any path");
});

Claim("should name the directory when the claims directory cannot be created, as an error result", async (context) => {
  writeFileSync(join(context.box.root, "a-file"), "");
  const server = await context.server({ env: { CLAIMS_DIR: join(context.box.root, "a-file", "claims") } });
  const result = await server.call("claim", { paths: ["a.ts"] });
  assert.is(result.isError, true);
  assert.ok(result.text.includes(join(context.box.root, "a-file", "claims")), result.text);
  assert.is((await server.client.listTools()).tools.length, 8, "still serving");
});

Claim("should take over a stale claim of another holder and say from whom", async (context) => {
  const target = join(context.box.project, "a.ts");
  writeClaimFile(context.box.dir, claimFileName(target), { target, holder: "session-gone", purpose: "crashed", taken_at: "2020-01-01T00:00:00Z", heartbeat_at: "2020-01-01T00:00:00Z" });
  const server = await context.server();
  const result = await server.call("claim", { paths: ["a.ts"], actor: "agent-new" });
  assert.equal([result.value.results[0].granted, result.value.results[0].reclaimedFrom], [true, "session-gone"]);
  assert.is(readJson(join(context.box.dir, claimFileName(target))).holder, "agent-new");
});

Claim("should give exactly one grant when two servers race for one path, round after round", async (context) => {
  const one = await context.server({ name: "client one" });
  const two = await context.server({ name: "client two" });
  for (let round = 0; round < 8; round++) {
    const path = `race-${round}.ts`;
    writeFileSync(join(context.box.project, path), "");
    const results = await Promise.all([one.call("claim", { paths: [path] }), two.call("claim", { paths: [path] })]);
    const granted = results.filter((result) => result.value.granted);
    assert.is(granted.length, 1, `round ${round}: one grant`);
    const winner = granted[0]?.value.actor;
    const loser = results.find((result) => !result.value.granted);
    assert.is(loser?.value.results[0].holder, winner);
    assert.is(readJson(join(context.box.dir, claimFileName(join(context.box.project, path)))).holder, winner);
  }
  const actors = new Set([(await one.call("get_status")).value.actor, (await two.call("get_status")).value.actor]);
  assert.is(actors.size, 2, "two connections never share a derived id");
  assert.ok([...actors].every((actor) => /^client-(one|two)-\d+-[0-9a-f]{12}$/.test(actor)), [...actors].join(" "));
});

Claim.run();

// ---------------------------------------------------------------------------------------------

const Queue = suite<Context>("mcp: queue, wait, release, status");
Queue.before.each(fresh);
Queue.after.each(closeAll);

Queue("should queue, grant on the holder's CLI release, and show the grant once in get_status", async (context) => {
  context.cli(["take", "shared-config", "--holder", "session-a", "--purpose", "first"]);
  const server = await context.server();
  const queued = await server.call("claim", { paths: ["shared-config"], queue: true, intent: "second", actor: "agent-q" });
  assert.equal([queued.value.granted, queued.value.results[0].queued, queued.value.results[0].queuePosition], [false, true, 1]);
  assert.match(queued.value.message, /^QUEUED shared-config at position 1/);
  const waiting = await server.call("get_status", { actor: "agent-q" });
  assert.equal(waiting.value.queued.map((entry: any) => entry.path), ["shared-config"]);
  const released = JSON.parse(context.cli(["release", "shared-config", "--holder", "session-a", "--json"]).stdout);
  assert.equal(released.handed_to, [{ target: "shared-config", holder: "agent-q" }]);
  const first = await server.call("get_status", { actor: "agent-q" });
  assert.equal(first.value.grantedWhileWaiting.map((grant: any) => [grant.path, grant.intent]), [["shared-config", "second"]]);
  assert.equal(first.value.claims.map((claim: any) => [claim.path, claim.holder, claim.mine]), [["shared-config", "agent-q", true]]);
  const second = await server.call("get_status", { actor: "agent-q" });
  assert.equal(second.value.grantedWhileWaiting, [], "shown once");
});

Queue("should block with wait until the holder releases, then grant", async (context) => {
  context.cli(["take", "cfg", "--holder", "session-a"]);
  const server = await context.server();
  const waiting = server.call("claim", { paths: ["cfg"], wait: 60, actor: "agent-w" });
  await until("the waiter to queue", () => queueFiles(context.box.dir).length === 1);
  assert.is(context.cli(["release", "cfg", "--holder", "session-a"]).code, 0);
  const result = await waiting;
  assert.equal([result.value.granted, result.value.results[0].granted], [true, true]);
  assert.is(readJson(join(context.box.dir, "cfg.json")).holder, "agent-w");
});

Queue("should tell a wait that asked for progress that it still runs, so a client's shorter timeout, reset on progress, does not end it", async (context) => {
  context.cli(["take", "cfg", "--holder", "session-a"]);
  const server = await context.server();
  const notes: number[] = [];
  // The SDK's timeout (60 s by default, 3 s here) ends a call that hears nothing before it.
  const waiting = server.client.callTool({ name: "claim", arguments: { paths: ["cfg"], wait: 30, actor: "agent-w" } }, undefined, { timeout: 3000, resetTimeoutOnProgress: true, onprogress: (note) => notes.push(note.progress) }).catch((error: Error) => error);
  await until("the waiter to queue", () => queueFiles(context.box.dir).length === 1);
  await until("two progress notes (past the client's timeout)", () => notes.length >= 2);
  assert.is(context.cli(["release", "cfg", "--holder", "session-a"]).code, 0);
  const result = (await waiting) as { structuredContent: any } | Error;
  assert.not.instance(result, Error, String(result));
  assert.is((result as { structuredContent: any }).structuredContent.granted, true);
  assert.equal(notes.slice(0, 2), [1, 2], "progress counts up");
  assert.is(readJson(join(context.box.dir, "cfg.json")).holder, "agent-w");
});

Queue("should serve a dozen waits at once and say nothing on stderr but what is wrong", async (context) => {
  const names = Array.from({ length: 12 }, (_, at) => `cfg-${at}`);
  for (const name of names) context.cli(["take", name, "--holder", "session-a"]);
  const server = await context.server();
  let stderr = "";
  server.transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const waiting = names.map((name) => server.call("claim", { paths: [name], wait: 60, actor: "agent-w" }));
  await until("every waiter to queue", () => queueFiles(context.box.dir).length === names.length);
  assert.is(context.cli(["release", "--holder", "session-a"]).code, 0);
  const results = await Promise.all(waiting);
  assert.equal(results.map((result) => result.value.granted), names.map(() => true));
  assert.is(stderr, "", "no warning of a listener leak per call in flight");
});

Queue("should leave nothing queued when the client disconnects mid-wait", async (context) => {
  context.cli(["take", "cfg", "--holder", "session-a"]);
  const server = await context.server();
  const waiting = server.call("claim", { paths: ["cfg"], wait: 100, actor: "agent-gone" }).catch((error: Error) => error);
  await until("the waiter to queue", () => queueFiles(context.box.dir).length === 1);
  await server.close(); // closes the server's stdin, as a client that quits does
  const answer = await waiting;
  assert.ok(!(answer instanceof Error), "the wait is answered before the server exits");
  assert.equal([answer.value.interrupted, answer.value.granted], [true, false]);
  assert.match(answer.value.message, /^The wait was cancelled: nothing was kept, and its queued interest withdrawn\.$/);
  assert.equal(queueFiles(context.box.dir), []);
  const status = JSON.parse(context.cli(["status", "--json"]).stdout);
  assert.equal(status.queued, []);
  assert.is(readJson(join(context.box.dir, "cfg.json")).holder, "session-a");
});

Queue("should leave nothing queued when the server is stopped with SIGTERM mid-wait", async (context) => {
  context.cli(["take", "cfg", "--holder", "session-a"]);
  const server = await context.server();
  const pid = server.transport.pid as number;
  void server.call("claim", { paths: ["cfg"], wait: 100, actor: "agent-killed" }).catch(() => {});
  await until("the waiter to queue", () => queueFiles(context.box.dir).length === 1);
  process.kill(pid, "SIGTERM");
  await until("the server to exit", () => {
    try {
      process.kill(pid, 0);
      return false;
    } catch {
      return true;
    }
  });
  assert.equal(queueFiles(context.box.dir), []);
});

Queue("should release all of yours when paths is omitted, none for [], and report lapsed claims as expired", async (context) => {
  const server = await context.server();
  await server.call("claim", { paths: ["a.ts", "utils.ts"], actor: "agent-r" });
  const none = await server.call("release", { paths: [], actor: "agent-r" });
  assert.equal(none.value.released, []);
  assert.is(readdirSync(context.box.dir).filter((name) => name.endsWith(".json")).length, 2);
  // A claim of agent-r's that lapsed and was taken over by another session.
  const target = join(context.box.project, "old.ts");
  writeFileSync(target, "");
  assert.is((await server.call("claim", { paths: ["old.ts"], actor: "agent-r" })).value.results[0].granted, true);
  const claim = readJson(join(context.box.dir, claimFileName(target)));
  writeClaimFile(context.box.dir, claimFileName(target), { ...claim, taken_at: "2020-01-01T00:00:00Z", heartbeat_at: "2020-01-01T00:00:00Z" });
  assert.is(context.cli(["take", "./old.ts", "--holder", "session-b", "--purpose", "mine now"]).code, 0);
  const lapsed = await server.call("release", { paths: ["old.ts"], actor: "agent-r" });
  assert.equal(lapsed.value.released, []);
  assert.equal(lapsed.value.expired, [target]);
  assert.equal(lapsed.value.nowHeldBy, [{ path: target, holder: "session-b", holderIntent: "mine now" }]);
  // One another session held all along was never agent-r's to expire.
  const theirs = await server.call("release", { paths: ["old.ts"], actor: "agent-q" });
  assert.equal([theirs.value.expired, theirs.value.notHeld], [[], [target]]);
  const all = await server.call("release", { actor: "agent-r" });
  assert.equal(all.value.released.sort(), [join(context.box.project, "a.ts"), join(context.box.project, "utils.ts")]);
  assert.is(readJson(join(context.box.dir, claimFileName(target))).holder, "session-b", "another's claim is untouched");
});

Queue("should queue only what is refused and take nothing else, all or nothing, saying so", async (context) => {
  context.cli(["take", "cfg", "--holder", "session-a"]);
  const server = await context.server();
  const result = await server.call("claim", { paths: ["cfg", "name:other-name"], queue: true, actor: "agent-q" });
  const [cfg, other] = result.value.results;
  assert.equal([cfg.queued, cfg.queuePosition, other.granted, other.queued], [true, 1, false, undefined]);
  assert.match(result.value.message, /Nothing else was taken \(all or nothing\): once granted, claim name:other-name with it\.$/);
  assert.is(existsSync(join(context.box.dir, "other-name.json")), false);
});

Queue("should withdraw a queued interest on release of that path", async (context) => {
  context.cli(["take", "cfg", "--holder", "session-a"]);
  const server = await context.server();
  await server.call("claim", { paths: ["cfg"], queue: true, actor: "agent-q" });
  assert.is(queueFiles(context.box.dir).length, 1);
  const released = await server.call("release", { paths: ["cfg"], actor: "agent-q" });
  assert.equal([released.value.released, released.value.withdrawn], [[], ["cfg"]]);
  assert.equal(queueFiles(context.box.dir), []);
  assert.is(readJson(join(context.box.dir, "cfg.json")).holder, "session-a");
});

Queue.run();

// ---------------------------------------------------------------------------------------------

const Beyond = suite<Context>("mcp: check and handover");
Beyond.before.each(fresh);
Beyond.after.each(closeAll);

Beyond("should check without taking: yours and free paths may be written, another's may not", async (context) => {
  context.cli(["take", "./utils.ts", "--holder", "session-a", "--purpose", "fix rounding"]);
  const server = await context.server();
  await server.call("claim", { paths: ["a.ts"], actor: "agent-c" });
  const mine = await server.call("check", { paths: ["a.ts", "new-file.ts"], actor: "agent-c" });
  assert.equal([mine.value.mayWrite, mine.value.refused], [true, []]);
  const theirs = await server.call("check", { paths: ["utils.ts"], actor: "agent-c" });
  assert.is(theirs.value.mayWrite, false);
  assert.equal([theirs.value.refused[0].holder, theirs.value.refused[0].holderIntent], ["session-a", "fix rounding"]);
  assert.is(existsSync(join(context.box.dir, "new-file.ts.json")), false);
  assert.is((await server.call("check", { paths: [] })).isError, true);
});

Beyond("should check a bare word claimed as a name as that name and as the file it will be", async (context) => {
  // Another session holds the file ./gen.txt, not there yet; a claim (the caller's own lock, or a
  // stale one left behind) names the word gen.txt. Judged as the name alone, the file's claim was
  // passed over and the agent told it may write gen.txt.
  context.cli(["take", "./gen.txt", "--holder", "session-a", "--purpose", "generating it"]);
  const server = await context.server();
  await server.call("claim", { paths: ["name:gen.txt"], intent: "my lock", actor: "agent-c" });
  const checked = await server.call("check", { paths: ["gen.txt"], actor: "agent-c" });
  assert.equal([checked.value.mayWrite, checked.value.refused.map((entry: { path: string; holder: string }) => [entry.path, entry.holder])], [false, [[join(context.box.project, "gen.txt"), "session-a"]]]);
  assert.is(context.cli(["check", "gen.txt", "--holder", "agent-c"]).code, 3, "as the CLI reads it");
  // Either reading held by another is a refusal, to the file's holder too (the word may mean agent-c's name), as the CLI says.
  const other = await server.call("check", { paths: ["gen.txt"], actor: "session-a" });
  assert.equal([other.value.mayWrite, other.value.refused.map((entry: { holder: string }) => entry.holder)], [false, ["agent-c"]]);
  assert.is(context.cli(["check", "gen.txt", "--holder", "session-a"]).code, 3);
  context.cli(["release", "./gen.txt", "--holder", "session-a"]);
  assert.is((await server.call("check", { paths: ["gen.txt"], actor: "agent-c" })).value.mayWrite, true, "both readings free to agent-c, or its own");
  assert.is((await server.call("check", { paths: ["./gen.txt"], actor: "session-a" })).value.mayWrite, true, "the file alone is free");
});

Beyond("should not grant a bare word as the name a claim carries while another holds the path it will be", async (context) => {
  // session-a holds the file ./gen.txt, not there yet; agent-c's own lock names the word gen.txt.
  // Read as that name, claim gen.txt renewed the lock and said granted: an agent meaning the file
  // (with no hook to stop it) then wrote it under session-a.
  const { project } = context.box;
  context.cli(["take", "./gen.txt", "--creating", "--holder", "session-a", "--purpose", "generating it"]);
  const server = await context.server();
  await server.call("claim", { paths: ["name:gen.txt"], intent: "my lock", actor: "agent-c" });
  const claimed = await server.call("claim", { paths: ["gen.txt"], actor: "agent-c" });
  const sentence = `gen.txt is both a name a claim carries and the path it will be in ${project} (./gen.txt), which session-a holds ("generating it"): write name:gen.txt to claim the name, or pass creating: true to claim the path.`;
  assert.equal([claimed.isError, claimed.text, claimed.value.granted], [true, sentence, undefined], JSON.stringify(claimed.value));
  assert.equal([claimed.value.results[0].path, claimed.value.results[0].reason], ["gen.txt", sentence]);
  const handed = await server.call("handover", { path: "gen.txt", intent: "then me", actor: "agent-d" });
  assert.is(handed.isError, true, JSON.stringify(handed.value));
  assert.match(handed.text, /^gen\.txt is both a name a claim carries .*: write name:gen\.txt to queue for the name, or \.\/gen\.txt for the path\.$/);
  // Each reading written out is answered as that reading.
  assert.is((await server.call("claim", { paths: ["name:gen.txt"], actor: "agent-c" })).value.granted, true);
  const file = await server.call("claim", { paths: ["gen.txt"], creating: true, actor: "agent-c" });
  assert.equal([file.value.granted, file.value.results[0].holder], [false, "session-a"]);
  // Once the file is free, the word is the name again, as before.
  context.cli(["release", "./gen.txt", "--holder", "session-a"]);
  const free = await server.call("claim", { paths: ["gen.txt"], actor: "agent-c" });
  assert.equal([free.isError, free.value.results[0].kind, free.value.results[0].renewed], [false, "name", true]);
});

Beyond("should refuse a handover of a bare word naming nothing nobody holds, and queue for a symbol its holder is adding with creating", async (context) => {
  const server = await context.server();
  // A misspelt file, free: a handover of a free path is granted at once, and this one was, silently.
  const typo = await server.call("handover", { path: "pakage.json", actor: "agent-c" });
  assert.is(typo.isError, true, JSON.stringify(typo.value));
  assert.is(typo.text, `pakage.json names nothing in ${context.box.project}, and nobody holds the path it will be (./pakage.json): pass creating: true to queue for that path (taken at once while it is free), or write name:pakage.json for a name.`);
  assert.equal(existsSync(context.box.dir) ? readdirSync(context.box.dir).filter((name) => name.endsWith(".json")) : [], [], "nothing taken");
  // With creating, the path it will be, taken at once while free, and no note that creating changed nothing.
  const created = await server.call("handover", { path: "nothing2", creating: true, actor: "agent-c" });
  assert.equal([created.value.granted, created.value.warnings], [true, undefined], JSON.stringify(created.value));
  // The path it will be, held by another (claimed before it exists): queued behind them, as before.
  assert.is(context.cli(["take", "./gen.txt", "--creating", "--holder", "session-a"]).code, 0);
  assert.is((await server.call("handover", { path: "gen.txt", actor: "agent-c" })).value.results[0].queued, true);
  // A symbol its holder is adding: the error's advice (creating: true) is an argument handover takes.
  assert.is(context.cli(["take", "utils.ts#newThing", "--creating", "--holder", "session-a", "--purpose", "adding it"]).code, 0);
  const without = await server.call("handover", { path: "utils.ts#newThing", actor: "agent-c" });
  assert.match(without.text, /names nothing: the file declares no top-level `newThing`.*pass creating: true/);
  const queued = await server.call("handover", { path: "utils.ts#newThing", creating: true, actor: "agent-c" });
  assert.equal([queued.value.results[0].queued, queued.value.results[0].holder], [true, "session-a"]);
});

Beyond("should say what the actor still holds when a release names a path it does not hold as such (a file of its glob)", async (context) => {
  const server = await context.server();
  assert.is((await server.call("claim", { paths: ["src/**/*.ts"], creating: true, actor: "agent-g" })).value.granted, true);
  const released = await server.call("release", { paths: ["src/a.ts"], actor: "agent-g" });
  assert.equal([released.value.released, released.value.notHeld, released.value.stillHeld], [[], [join(context.box.project, "src", "a.ts")], [join(context.box.project, "src/**/*.ts")]]);
  assert.is((await server.call("release", { paths: ["src/**/*.ts"], actor: "agent-g" })).value.stillHeld, undefined);
});

Beyond("should queue a handover behind the holder, and hand one's own claim to another actor", async (context) => {
  context.cli(["take", "cfg", "--holder", "session-a"]);
  const server = await context.server();
  const queued = await server.call("handover", { path: "cfg", intent: "bump the preset", actor: "agent-h" });
  assert.equal([queued.value.results[0].queued, queued.value.results[0].queuePosition], [true, 1]);
  const notYours = await server.call("handover", { path: "cfg", to: "agent-x", actor: "agent-h" });
  assert.equal([notYours.isError, notYours.value.error.code], [true, "LOST"]);
  assert.match(notYours.text, /^You do not hold cfg: session-a does/);
  await server.call("claim", { paths: ["a.ts"], actor: "agent-h" });
  const handed = await server.call("handover", { path: "a.ts", to: "agent-x", actor: "agent-h" });
  assert.equal([handed.isError, handed.value.to], [false, "agent-x"]);
  const handedClaim = readJson(join(context.box.dir, claimFileName(join(context.box.project, "a.ts"))));
  assert.is(handedClaim.holder, "agent-x");
  // The new holding's token, as the CLI's handover prints it: the new holder's writes carry it.
  assert.equal([typeof handed.value.token, handed.value.token], ["number", handedClaim.token]);
  // What to do next is said as a tool call, not a shell command an agent over MCP may not have,
  // naming the name as the tool reads one.
  const nobody = await server.call("handover", { path: "name:cfg-free", to: "agent-x", actor: "agent-h" });
  assert.is(nobody.isError, true);
  assert.match(nobody.text, /^You do not hold cfg-free: nobody does; take it with the claim tool with paths \["name:cfg-free"\]/);
  assert.not.match(nobody.text, /claims take/);
  // Handing one's own claim to oneself: said in the tools' words (a claim is renewed by claiming it again; MCP has no beat).
  const toSelf = await server.call("handover", { path: "a.ts", to: "agent-x", actor: "agent-x" });
  assert.is(toSelf.isError, true);
  assert.match(toSelf.text, /^to agent-x names you, the holder; hand .*a\.ts to another holder \(claiming it again renews your own claim\)\.$/);
});

Beyond("should keep a handover queued before a claim's wait when the wait runs out, and say so", async (context) => {
  context.cli(["take", "cfg", "--holder", "session-a"]);
  const server = await context.server();
  await server.call("handover", { path: "cfg", intent: "bump the preset", actor: "agent-h" });
  const waited = await server.call("claim", { paths: ["cfg"], wait: 1, intent: "another thing", actor: "agent-h" });
  assert.equal([waited.value.timedOut, waited.value.results[0].queued, waited.value.results[0].queuePosition], [true, true, 1]);
  assert.match(waited.value.message, /^TIMEOUT: cfg is still held; nothing was taken, but your place queued before the wait stays as it was \(cfg at position 1\)/);
  const status = JSON.parse(context.cli(["status", "cfg", "--json"]).stdout);
  assert.equal(status.claims[0].queue.map((entry: { holder: string; purpose: string }) => [entry.holder, entry.purpose]), [["agent-h", "bump the preset"]]);
});

Beyond("should say whose lapsed claim a claim's wait was granted in place of (reclaimedFrom)", async (context) => {
  assert.is(context.cli(["take", "name:cfg", "--holder", "shorty", "--ttl", "2", "--purpose", "a short job"]).code, 0);
  const server = await context.server();
  const waited = await server.call("claim", { paths: ["name:cfg"], wait: 20, actor: "agent-w" });
  assert.equal([waited.value.granted, waited.value.results[0].reclaimedFrom], [true, "shorty"]);
});

Beyond("should name a purpose that is too long by the argument the tool takes it as", async (context) => {
  const server = await context.server();
  const claimed = await server.call("claim", { paths: ["name:cfg"], intent: "i".repeat(3000), actor: "agent-a" });
  assert.equal([claimed.isError, claimed.text], [true, "intent is 3000 characters long; keep it under 1000."]);
  const handed = await server.call("handover", { path: "name:cfg", intent: "i".repeat(2000), actor: "agent-a" });
  assert.equal([handed.isError, handed.text], [true, "intent is 2000 characters long; keep it under 1000."]);
  const reserved = await server.call("file_reservation_paths", { project_key: context.box.project, agent_name: "agent-a", paths: ["a.ts"], reason: "r".repeat(1500) });
  assert.equal([reserved.isError, reserved.text], [true, "reason is 1500 characters long; keep it under 1000."]);
  assert.equal(JSON.parse(context.cli(["status", "--json"]).stdout).claims, [], "nothing taken");
});

Beyond.run();

// ---------------------------------------------------------------------------------------------

const Reserve = suite<Context>("mcp: file reservations");
Reserve.before.each(fresh);
Reserve.after.each(closeAll);

Reserve("should grant free paths and globs, report conflicts with their holders, and not grant a conflicting path", async (context) => {
  const project = context.box.project;
  mkdirSync(join(project, "src"));
  context.cli(["take", "./utils.ts", "--holder", "session-a", "--purpose", "fix rounding"]);
  const server = await context.server();
  const result = await server.call("file_reservation_paths", { project_key: project, agent_name: "BlueLake", paths: ["a.ts", "src/**/*.ts", "utils.ts"], reason: "refactor", ttl_seconds: 600 });
  assert.is(result.isError, false);
  assert.equal(result.value.granted.map((grant: any) => [grant.path_pattern, grant.exclusive, grant.reason]).sort(), [["a.ts", true, "refactor"], ["src/**/*.ts", true, "refactor"]]);
  const claim = readJson(join(context.box.dir, claimFileName(join(project, "a.ts"))));
  const grant = result.value.granted.find((entry: any) => entry.path_pattern === "a.ts");
  assert.is(grant.expires_ts, plus(claim.heartbeat_at, 600));
  assert.ok(Number.isSafeInteger(grant.id));
  assert.equal(result.value.conflicts, [
    { path: "utils.ts", holders: [{ agent: "session-a", path_pattern: "utils.ts", exclusive: true, expires_ts: plus(readJson(join(context.box.dir, claimFileName(join(project, "utils.ts")))).heartbeat_at, 1800), reason: "fix rounding" }] },
  ]);
  assert.is(readJson(join(context.box.dir, claimFileName(join(project, "utils.ts")))).holder, "session-a");
  // The CLI is refused by the reservation, as by any claim.
  const cli = context.cli(["take", "./src/x.ts", "--holder", "session-a"]);
  assert.is(cli.code, 3);
  assert.match(cli.stderr + cli.stdout, /BlueLake/);
  // Re-reserving one's own pattern updates it, under the same id.
  const again = await server.call("file_reservation_paths", { project_key: project, agent_name: "BlueLake", paths: ["a.ts"], reason: "refactor, part 2" });
  assert.equal([again.value.granted[0].id, again.value.granted[0].reason], [grant.id, "refactor, part 2"]);
});

Reserve("should let shared reservations coexist and report them to an exclusive one", async (context) => {
  const project = context.box.project;
  const server = await context.server();
  const shared = { project_key: project, paths: ["docs/"], exclusive: false, reason: "read the docs" };
  const one = await server.call("file_reservation_paths", { ...shared, agent_name: "Reader1" });
  const two = await server.call("file_reservation_paths", { ...shared, agent_name: "Reader2" });
  assert.equal([one.value.granted[0].exclusive, two.value.granted.length, two.value.conflicts], [false, 1, []]);
  const writer = await server.call("file_reservation_paths", { project_key: project, agent_name: "Writer", paths: ["docs/a.md"] });
  assert.equal(writer.value.granted, []);
  assert.equal(writer.value.conflicts[0].holders.map((holder: any) => [holder.agent, holder.path_pattern, holder.exclusive]).sort(), [["Reader1", "docs/", false], ["Reader2", "docs/", false]]);
});

Reserve("should flag an agent queued ahead among a conflict's holders: it holds nothing yet, so no expiry", async (context) => {
  const project = context.box.project;
  const server = await context.server();
  assert.is(context.cli(["take", join(project, "D", "a.md"), "--holder", "Holder"]).code, 0);
  assert.is(context.cli(["take", join(project, "D") + "/", "--queue", "--holder", "Waiter", "--purpose", "moving D"]).code, 6);
  const writer = await server.call("file_reservation_paths", { project_key: project, agent_name: "Writer", paths: ["D/b.md"] });
  assert.equal(writer.value.conflicts[0]?.holders.map((holder: any) => [holder.agent, holder.queued, holder.expires_ts]), [["Waiter", true, null]], writer.text);
});

Reserve("should replay an idempotency key's first answer as given, conflicts and their expiry included, after the holder renewed or released", async (context) => {
  const project = context.box.project;
  const server = await context.server();
  const holder = { project_key: project, agent_name: "GreenCastle", paths: ["a.ts"], ttl_seconds: 7200 };
  assert.is((await server.call("file_reservation_paths", holder)).value.granted.length, 1);
  const args = { project_key: project, agent_name: "BlueLake", paths: ["a.ts", "utils.ts"], idempotency_key: "k-conflict" };
  const first = await server.call("file_reservation_paths", args);
  const claim = readJson(join(context.box.dir, claimFileName(join(project, "a.ts"))));
  assert.is(first.value.conflicts[0].holders[0].expires_ts, plus(claim.heartbeat_at, 7200));
  // The holder renews with another TTL, then releases: the first answer stays what it was.
  assert.is((await server.call("file_reservation_paths", { ...holder, ttl_seconds: 600 })).value.granted.length, 1);
  const renewed = await server.call("file_reservation_paths", args);
  assert.is(renewed.value.idempotent_replay, true);
  assert.equal(renewed.value.conflicts, first.value.conflicts, "the conflicts as the first answer gave them");
  assert.is((await server.call("release_file_reservations", { project_key: project, agent_name: "GreenCastle" })).value.released, 1);
  const released = await server.call("file_reservation_paths", args);
  assert.equal([released.value.granted, released.value.conflicts], [first.value.granted, first.value.conflicts]);
});

Reserve("should replay an idempotency key, refuse it with other arguments, and refuse bad input with one sentence", async (context) => {
  const project = context.box.project;
  const server = await context.server();
  const args = { project_key: project, agent_name: "BlueLake", paths: ["a.ts"], idempotency_key: "k1" };
  const first = await server.call("file_reservation_paths", args);
  const replay = await server.call("file_reservation_paths", args);
  assert.equal([first.value.idempotent_replay, replay.value.idempotent_replay], [undefined, true]);
  assert.equal(replay.value.granted[0].id, first.value.granted[0].id);
  const conflict = await server.call("file_reservation_paths", { ...args, paths: ["utils.ts"] });
  assert.equal([conflict.isError, conflict.value.error.code], [true, "IDEMPOTENCY_KEY_CONFLICT"]);
  const outside = await server.call("file_reservation_paths", { project_key: project, agent_name: "BlueLake", paths: ["../elsewhere.ts"] });
  assert.equal([outside.isError, outside.text], [true, `../elsewhere.ts is outside project_key ${project}; reserve paths inside the repository, relative to it.`]);
  // Read as the CLI reads them: `~` is the home directory, and a name is no path in the project
  // (it was the file ./name:deploy, granted beside another agent's name deploy).
  const home = await server.call("file_reservation_paths", { project_key: project, agent_name: "BlueLake", paths: ["~/notes.md"] });
  assert.equal([home.isError, home.text], [true, `~/notes.md is outside project_key ${project}; reserve paths inside the repository, relative to it.`]);
  const name = await server.call("file_reservation_paths", { project_key: project, agent_name: "BlueLake", paths: ["name:deploy"] });
  assert.equal([name.isError, name.text], [true, 'name:deploy is a name, not a path inside project_key; reserve names with the claim tool (paths: ["name:deploy"]).']);
  const ttl = await server.call("file_reservation_paths", { project_key: project, agent_name: "BlueLake", paths: ["a.ts"], ttl_seconds: 0 });
  assert.is(ttl.text, "file_reservation_paths: ttl_seconds must be whole seconds from 1 to 2592000 (30 days); got 0.");
  // A number sent as a string is said to be one: `got "60"` read as a valid value.
  const quoted = await server.call("file_reservation_paths", { project_key: project, agent_name: "BlueLake", paths: ["a.ts"], ttl_seconds: "60" });
  assert.is(quoted.text, 'file_reservation_paths: ttl_seconds must be whole seconds from 1 to 2592000 (30 days); got the string "60".');
  const wait = await server.call("claim", { paths: ["a.ts"], wait: "10" });
  assert.is(wait.text, 'claim: wait must be seconds to wait, from 0 (at most 120 per call); got the string "10".');
  const fraction = await server.call("file_reservation_paths", { project_key: project, agent_name: "BlueLake", paths: ["a.ts"], ttl_seconds: 1.5 });
  assert.match(fraction.text, /ttl_seconds must be whole seconds/);
  const relative = await server.call("file_reservation_paths", { project_key: "project", agent_name: "BlueLake", paths: ["a.ts"] });
  assert.match(relative.text, /^project_key must be the absolute path/);
  const noAgent = await server.call("file_reservation_paths", { project_key: project, paths: ["a.ts"] });
  assert.is(noAgent.text, "file_reservation_paths: agent_name is required: a string.");
  const badAgent = await server.call("file_reservation_paths", { project_key: project, agent_name: " ", paths: ["a.ts"] });
  assert.is(badAgent.text, 'agent_name must be 1 to 200 printable characters; got " ".');
  const badKey = await server.call("file_reservation_paths", { ...args, idempotency_key: "" });
  assert.is(badKey.text, "idempotency_key must be 1 to 200 printable characters.");
  // The root directory as the project: its paths are inside it.
  const fromRoot = await server.call("file_reservation_paths", { project_key: "/", agent_name: "Root", paths: [join(project, "root.ts").slice(1)] });
  assert.equal(fromRoot.value.granted.map((grant: any) => grant.path_pattern), [join(project, "root.ts").slice(1)], fromRoot.text);
});

Reserve("should keep a reservation's id when the agent reserves its path again shared, or exclusive again: the reservation is updated", async (context) => {
  const project = context.box.project;
  const server = await context.server();
  const args = { project_key: project, agent_name: "BlueLake", paths: ["a.ts"] };
  assert.is((await server.call("file_reservation_paths", { ...args, reason: "first" })).value.granted.length, 1);
  // Reserved a minute ago: its update now is in another second than its grant.
  const file = join(context.box.dir, claimFileName(join(project, "a.ts")));
  writeClaimFile(context.box.dir, claimFileName(join(project, "a.ts")), { ...readJson(file), taken_at: plus(readJson(file).taken_at, -60) }, { fresh: true });
  const [exclusive] = (await server.call("renew_file_reservations", { ...args, extend_seconds: 60 })).value.file_reservations;
  const shared = await server.call("file_reservation_paths", { ...args, exclusive: false });
  assert.equal(shared.value.granted.map((grant: any) => [grant.id, grant.exclusive]), [[exclusive.id, false]], shared.text);
  const renewed = await server.call("renew_file_reservations", { ...args, file_reservation_ids: [exclusive.id] });
  assert.equal([renewed.value.renewed, renewed.value.lost], [1, undefined], "the id names the reservation after the update");
  const again = await server.call("file_reservation_paths", { ...args, exclusive: true });
  assert.equal(again.value.granted.map((grant: any) => [grant.id, grant.exclusive]), [[exclusive.id, true]]);
  assert.equal(JSON.parse(context.cli(["status", "--json"]).stdout).claims.map((claim: any) => [claim.holder, claim.mode ?? "exclusive"]), [["BlueLake", "exclusive"]], "one reservation, not two");
  assert.is((await server.call("release_file_reservations", { ...args, file_reservation_ids: [exclusive.id] })).value.released, 1);
});

Reserve("should renew by extend_seconds and release by id or all, within the project only", async (context) => {
  const project = context.box.project;
  const server = await context.server();
  const reserved = await server.call("file_reservation_paths", { project_key: project, agent_name: "BlueLake", paths: ["a.ts", "utils.ts"], ttl_seconds: 600 });
  await server.call("claim", { paths: ["name:elsewhere-name"], actor: "BlueLake" }); // not in the project
  const renewed = await server.call("renew_file_reservations", { project_key: project, agent_name: "BlueLake", extend_seconds: 1200, paths: ["a.ts"] });
  assert.is(renewed.value.renewed, 1);
  const [entry] = renewed.value.file_reservations;
  const added = (Date.parse(entry.new_expires_ts) - Date.parse(entry.old_expires_ts)) / 1000;
  assert.ok(added >= 1198 && added <= 1202, `extended by ${added} s`);
  assert.is(entry.id, reserved.value.granted.find((grant: any) => grant.path_pattern === "a.ts").id, "the same reservation");
  const claim = readJson(join(context.box.dir, claimFileName(join(project, "a.ts"))));
  assert.is(plus(claim.heartbeat_at, claim.ttl), entry.new_expires_ts);
  // Renewed again and again, each by what it asks: a second more each time added up (a renewal
  // whose clock crosses into the next second between its look and its write may gain one).
  const before = Date.parse(entry.new_expires_ts);
  let last = entry;
  for (let round = 0; round < 3; round++) [last] = (await server.call("renew_file_reservations", { project_key: project, agent_name: "BlueLake", extend_seconds: 60, paths: ["a.ts"] })).value.file_reservations;
  const gained = (Date.parse(last.new_expires_ts) - before) / 1000;
  assert.ok(gained >= 180 && gained <= 181, `three renewals by 60 s added ${gained} s`);
  const utilsId = reserved.value.granted.find((grant: any) => grant.path_pattern === "utils.ts").id;
  const byId = await server.call("release_file_reservations", { project_key: project, agent_name: "BlueLake", file_reservation_ids: [utilsId] });
  assert.is(byId.value.released, 1);
  assert.match(byId.value.released_at, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  assert.is(existsSync(join(context.box.dir, claimFileName(join(project, "utils.ts")))), false);
  const rest = await server.call("release_file_reservations", { project_key: project, agent_name: "BlueLake" });
  assert.is(rest.value.released, 1);
  assert.is(readJson(join(context.box.dir, "elsewhere-name.json")).holder, "BlueLake", "a claim outside the project stays");
});

Reserve("should read glob: as the CLI does: a glob over another agent's file is a conflict, not a directory named glob:src", async (context) => {
  const project = context.box.project;
  mkdirSync(join(project, "src"));
  mkdirSync(join(project, "app", "[id]"), { recursive: true });
  mkdirSync(join(project, "app", "d"));
  for (const file of ["src/a.ts", "app/[id]/page.tsx", "app/d/page.tsx"]) writeFileSync(join(project, file), "");
  assert.is(context.cli(["take", "./src/a.ts", "./app/d/page.tsx", "--holder", "session-a", "--purpose", "fix"]).code, 0);
  const server = await context.server();
  for (const path of ["glob:src/*.ts", "glob:app/[id]/page.tsx", `glob:${join(project, "src")}/*.ts`]) {
    const result = await server.call("file_reservation_paths", { project_key: project, agent_name: "BlueLake", paths: [path] });
    assert.equal([result.value.granted, result.value.conflicts.map((conflict: any) => conflict.holders[0].agent)], [[], ["session-a"]], path);
  }
  const free = await server.call("file_reservation_paths", { project_key: project, agent_name: "BlueLake", paths: ["glob:src/*.js"] });
  assert.equal(free.value.granted.map((grant: any) => grant.path_pattern), ["src/*.js"], free.text);
  assert.is(context.cli(["take", "./src/b.js", "--holder", "session-a"]).code, 3, "the glob covers the files it matches");
  const released = await server.call("release_file_reservations", { project_key: project, agent_name: "BlueLake", paths: ["glob:src/*.js"] });
  assert.is(released.value.released, 1, released.text);
});

Reserve("should renew and release a glob reservation as that glob after a file named like it appears, and report a named path lost", async (context) => {
  const project = context.box.project;
  mkdirSync(join(project, "src"), { recursive: true });
  writeFileSync(join(project, "src", "a.ts"), "");
  const server = await context.server();
  const reserved = await server.call("file_reservation_paths", { project_key: project, agent_name: "BlueLake", paths: ["src/*.ts", "b.ts"], ttl_seconds: 600 });
  assert.is(reserved.value.granted.length, 2);
  writeFileSync(join(project, "src", "*.ts"), ""); // `> src/*.ts` in a shell where the glob matched nothing
  assert.is(claims(["release", join(project, "b.ts"), "--dir", context.box.dir, "--holder", "BlueLake"]).code, 0);
  assert.is(claims(["take", join(project, "b.ts"), "--dir", context.box.dir, "--holder", "GreenCastle"]).code, 0);
  const renewed = await server.call("renew_file_reservations", { project_key: project, agent_name: "BlueLake", extend_seconds: 1200 });
  assert.is(renewed.value.renewed, 1, renewed.text);
  assert.is(renewed.value.file_reservations[0].path_pattern, "src/*.ts", "the glob, not the file named like it");
  assert.is(renewed.value.file_reservations[0].id, reserved.value.granted.find((grant: any) => grant.path_pattern === "src/*.ts").id);
  const named = await server.call("renew_file_reservations", { project_key: project, agent_name: "BlueLake", paths: ["b.ts"] });
  assert.is(named.value.renewed, 0);
  const holderNow = (holders: any[]) => holders.map(({ agent, path_pattern, exclusive, expires_ts }) => ({ agent, path_pattern, exclusive, expires: typeof expires_ts }));
  assert.equal(named.value.lost.map((lost: any) => ({ ...lost, holders: holderNow(lost.holders) })), [{ path_pattern: "b.ts", holders: [{ agent: "GreenCastle", path_pattern: "b.ts", exclusive: true, expires: "string" }] }], `a named path no longer held is said lost, with its holder as conflicts name one: ${named.text}`);
  assert.equal(Object.keys(named.value.lost[0].holders[0]).sort(), ["agent", "exclusive", "expires_ts", "path_pattern", "reason"], "the keys of a conflict's holder");
  assert.is(claims(["take", join(project, "src", "a.ts"), "--dir", context.box.dir, "--holder", "GreenCastle"]).code, 3, "the glob still covers its files");
  assert.is((await server.call("release_file_reservations", { project_key: project, agent_name: "BlueLake", file_reservation_ids: [renewed.value.file_reservations[0].id] })).value.released, 1);
  assert.is(claims(["take", join(project, "src", "a.ts"), "--dir", context.box.dir, "--holder", "GreenCastle"]).code, 0, "released as the glob");
});

Reserve("should report a reservation lost to another actor after it lapsed, renewing all or by id, and one renewed after another held part of it", async (context) => {
  const project = context.box.project;
  mkdirSync(join(project, "src"), { recursive: true });
  const server = await context.server();
  const reserved = await server.call("file_reservation_paths", { project_key: project, agent_name: "BlueLake", paths: ["a.ts", "utils.ts", "src/"], ttl_seconds: 1 });
  const idOf = (pattern: string) => reserved.value.granted.find((grant: any) => grant.path_pattern === pattern).id;
  await new Promise((resolve) => setTimeout(resolve, 2100));
  // Lapsed: another actor takes two of them over, and holds part of the third for a while.
  for (const path of ["a.ts", "utils.ts", "src/inside.ts"]) assert.is(claims(["take", join(project, path), "--dir", context.box.dir, "--holder", "GreenCastle"]).code, 0);
  assert.is(claims(["release", join(project, "src", "inside.ts"), "--dir", context.box.dir, "--holder", "GreenCastle"]).code, 0);
  const byId = await server.call("renew_file_reservations", { project_key: project, agent_name: "BlueLake", file_reservation_ids: [idOf("utils.ts")] });
  assert.equal([byId.value.renewed, byId.value.lost], [0, [{ id: idOf("utils.ts"), holders: [] }]], "an id no longer the agent's is lost");
  const all = await server.call("renew_file_reservations", { project_key: project, agent_name: "BlueLake", extend_seconds: 600 });
  const lost = [...all.value.lost].sort((a: any, b: any) => a.path_pattern.localeCompare(b.path_pattern));
  const holderNow = (holders: any[]) => holders.map(({ agent, path_pattern, exclusive, expires_ts }) => ({ agent, path_pattern, exclusive, expires: typeof expires_ts }));
  assert.equal(lost.map((one: any) => ({ ...one, holders: holderNow(one.holders) })), ["a.ts", "utils.ts"].map((path) => ({ path_pattern: path, holders: [{ agent: "GreenCastle", path_pattern: path, exclusive: true, expires: "string" }] })), `both taken-over reservations are lost, each holder as conflicts name one: ${all.text}`);
  assert.is(all.value.renewed, 1);
  assert.equal([all.value.file_reservations[0].path_pattern, all.value.file_reservations[0].lapsed], ["src/", true], "renewed, but another actor held part of it meanwhile");
  const again = await server.call("renew_file_reservations", { project_key: project, agent_name: "BlueLake" });
  assert.equal([again.value.lost, again.value.file_reservations[0].lapsed], [undefined, undefined], "said once; a renewal that did not lapse is no news");
});

Reserve("should meet in the claims directory a package's own .claims names, from any project_key or cwd, and renew and release there", async (context) => {
  const project = context.box.project;
  const pkg = join(project, "pkg");
  mkdirSync(pkg);
  writeFileSync(join(pkg, "f.ts"), "");
  writeFileSync(join(project, ".claims"), JSON.stringify({ dir: "../store-root" }));
  writeFileSync(join(pkg, ".claims"), JSON.stringify({ dir: "../../store-pkg" }));
  context.env = { HOME: context.box.root }; // no CLAIMS_DIR: the .claims files decide
  const server = await context.server();
  const claimed = await server.call("claim", { paths: ["pkg/f.ts"], actor: "M", intent: "root work" });
  assert.is(claimed.value.results[0].granted, true, claimed.text);
  for (const [key, path] of [[pkg, "f.ts"], [project, "pkg/f.ts"]]) {
    const reserved = await server.call("file_reservation_paths", { project_key: key, agent_name: "R", paths: [path] });
    assert.equal(reserved.value.granted, [], `project_key ${key}`);
    assert.is(reserved.value.conflicts[0].holders[0].agent, "M");
  }
  assert.is((await server.call("release", { actor: "M" })).value.released.length, 1, "released where it was taken");
  const reserved = await server.call("file_reservation_paths", { project_key: project, agent_name: "R", paths: ["pkg/f.ts"], ttl_seconds: 600 });
  assert.is(reserved.value.granted.length, 1);
  const cli = claims(["take", "f.ts", "--holder", "B"], { cwd: pkg, env: context.env });
  assert.is(cli.code, 3, "the package's sessions are refused");
  assert.is((await server.call("renew_file_reservations", { project_key: project, agent_name: "R", extend_seconds: 60 })).value.renewed, 1);
  assert.is((await server.call("release_file_reservations", { project_key: project, agent_name: "R" })).value.released, 1);
  assert.is(claims(["take", "f.ts", "--holder", "B"], { cwd: pkg, env: context.env }).code, 0);
});

Reserve.run();

// ---------------------------------------------------------------------------------------------

const Wire = suite<Context>("mcp: the wire and identity");
Wire.before.each(fresh);
Wire.after.each(closeAll);

Wire("should answer malformed JSON-RPC with a protocol error and keep serving", async (context) => {
  const { child, lines, exited } = rawServer(context, {}, false);
  try {
    child.stdin.write("{this is not json\n");
    await until("a parse error", () => lines.length === 1);
    assert.equal([lines[0].id, lines[0].error.code], [null, -32700]);
    child.stdin.write('{"hello":"world"}\n');
    await until("an invalid-request error", () => lines.length === 2);
    assert.equal([lines[1].id, lines[1].error.code], [null, -32600]);
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } })}\n`);
    await until("the initialize answer", () => lines.length === 3);
    assert.equal([lines[2].id, lines[2].result.serverInfo.name], [1, "claims"]);
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "no/such/method" })}\n`);
    await until("a method-not-found error", () => lines.length === 4);
    assert.equal([lines[3].id, lines[3].error.code], [2, -32601]);
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "no_such_tool", arguments: {} } })}\n`);
    await until("an unknown-tool error", () => lines.length === 5);
    assert.equal([lines[4].id, lines[4].error.code], [3, -32602]);
    assert.match(lines[4].error.message, /^Unknown tool "no_such_tool"; the tools are claim, /, "one sentence, said once (the client adds its own MCP error prefix)");
    // A tools/call without a tool's name, or with arguments that are no object: Invalid params, one sentence.
    const faults = [
      [4, undefined, "has no params object"],
      [5, { name: 5 }, "names no tool (params.name is not a string)"],
      [6, { name: "claim", arguments: "a.ts" }, "has arguments that are not an object"],
      [6.5, { name: "claim", arguments: ["a.ts"] }, "has arguments that are not an object"],
    ] as const;
    for (const [at, params, fault] of faults) {
      const id = `call-${at}`;
      child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", ...(params !== undefined && { params }) })}\n`);
      await until(`the answer to request ${id}`, () => lines.some((line) => line.id === id));
      const answer = lines.find((line) => line.id === id);
      assert.is(answer.error.code, -32602, JSON.stringify(answer));
      assert.is(answer.error.message, `Invalid params: the tools/call request ${fault}; send {"name": "<tool>", "arguments": {…}}.`);
    }
    // Params another method's schema refuses (a cursor that is no string): Invalid params, one sentence, not a dump of the schema's issues.
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list", params: { cursor: 5 } })}\n`);
    await until("the answer to request 7", () => lines.some((line) => line.id === 7));
    const listed = lines.find((line) => line.id === 7);
    assert.is(listed.error.code, -32602, JSON.stringify(listed));
    assert.match(listed.error.message, /^Invalid params: in the tools\/list request, params\.cursor is wrong \([^\n]*\); send it as the MCP specification describes\.$/);
    child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 8, method: "tools/call", params: { name: "get_status", arguments: { actor: "still-serving" } } })}\n`);
    await until("a call after them", () => lines.some((line) => line.id === 8));
    assert.is(lines.find((line) => line.id === 8).result.structuredContent.actor, "still-serving");
    child.stdin.end();
    assert.is(await exited, 0, "exits by itself once stdin closes");
  } finally {
    if (child.exitCode === null) child.kill(); // a failed assertion must not leave the server, and the suite, waiting
  }
});

/** The server as a raw JSON-RPC peer: lines written to its stdin, the answers read from its stdout by id; initialized first unless `initialize` is false. */
function rawServer(context: Context, env: Record<string, string> = {}, initialize = true) {
  const child = spawn(process.execPath, [BIN, "mcp"], { cwd: context.box.project, env: cleanEnv({ ...context.env, ...env }), stdio: ["pipe", "pipe", "pipe"] });
  const lines: any[] = [];
  let buffer = "";
  child.stdout.on("data", (chunk) => {
    buffer += chunk;
    for (let at = buffer.indexOf("\n"); at !== -1; at = buffer.indexOf("\n")) {
      lines.push(JSON.parse(buffer.slice(0, at)));
      buffer = buffer.slice(at + 1);
    }
  });
  const exited = new Promise<number | null>((resolve) => child.on("close", resolve));
  const hello = { jsonrpc: "2.0", id: "init", method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };
  if (initialize) child.stdin.write([hello, { jsonrpc: "2.0", method: "notifications/initialized" }].map((message) => `${JSON.stringify(message)}\n`).join(""));
  return {
    child,
    lines,
    exited,
    send: (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`),
    answerTo: async (id: string | number) => {
      await until(`the answer to request ${id}`, () => lines.some((line) => line.id === id));
      return lines.find((line) => line.id === id);
    },
  };
}

Wire("should answer a request whose params, _meta or progressToken are malformed under its own id, Invalid params in one sentence, and serve on", async (context) => {
  const server = rawServer(context);
  try {
    const cases = [
      [1, "tools/list", null, /^Invalid params: in the tools\/list request, params is wrong \(Invalid input: expected object, received null\); send it as the MCP specification describes\.$/],
      [2, "ping", null, /^Invalid params: in the ping request, params is wrong \(Invalid input: expected object, received null\);/],
      [3, "tools/call", null, /^Invalid params: the tools\/call request has no params object; send \{"name": "<tool>", "arguments": \{…\}\}\.$/],
      [4, "tools/list", { _meta: "x" }, /^Invalid params: in the tools\/list request, params\._meta is wrong \(Invalid input: expected object, received string\);/],
      [5, "tools/call", { name: "get_status", arguments: {}, _meta: "x" }, /^Invalid params: in the tools\/call request, params\._meta is wrong \(Invalid input: expected object, received string\);/],
      ["six", "tools/call", { name: "get_status", arguments: {}, _meta: { progressToken: null } }, /^Invalid params: in the tools\/call request, params\._meta\.progressToken is wrong \(Invalid input: expected string or number, received null\); send it as the MCP specification describes\.$/],
      [7, "tools/list", { _meta: { progressToken: 1.5 } }, /^Invalid params: in the tools\/list request, params\._meta\.progressToken is wrong \(Invalid input: expected string or whole number, received number\);/],
    ] as const;
    for (const [id, method, params, sentence] of cases) {
      server.send({ jsonrpc: "2.0", id, method, params });
      const answer = await server.answerTo(id);
      assert.is(answer.error?.code, -32602, JSON.stringify(answer));
      assert.match(answer.error.message, sentence);
    }
    assert.is(server.lines.filter((line) => line.id === null).length, 0, "no answer lost its request's id");
    // A request with an id that is malformed elsewhere than its params: Invalid Request, under that id.
    server.send({ jsonrpc: "2.0", id: 8, method: "ping", extra: true });
    assert.equal([(await server.answerTo(8)).error.code, (await server.answerTo(8)).error.message], [-32600, 'Invalid Request: the message is wrong (Unrecognized key: "extra"); send a JSON-RPC 2.0 request.']);
    for (const [id, message] of [[10, {}], ["eleven", { params: {} }], [12, { method: 5 }]] as const) {
      server.send({ jsonrpc: "2.0", id, ...message });
      assert.equal([(await server.answerTo(id)).error.code, (await server.answerTo(id)).error.message], [-32600, "Invalid Request: the message names no method (method is not a string); send a JSON-RPC 2.0 request."], JSON.stringify(message));
    }
    // A malformed response names an id of the server's own requests: refused, not under that id (a request of the client's may have it).
    const before = server.lines.length;
    server.send({ jsonrpc: "2.0", id: 13, result: "x" });
    server.send({ jsonrpc: "2.0", id: 14, method: "ping" });
    await server.answerTo(14);
    assert.equal(server.lines.slice(before).map((line) => line.id), [null, 14]);
    server.send({ jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "get_status", arguments: { actor: "still-serving" }, _meta: { progressToken: "p-1" } } });
    assert.is((await server.answerTo(9)).result.structuredContent.actor, "still-serving", "a well-formed call is served");
    server.child.stdin.end();
    assert.is(await server.exited, 0);
  } finally {
    if (server.child.exitCode === null) server.child.kill();
  }
});

Wire("should keep nothing a claim took when the client cancels it or closes the connection before the answer", async (context) => {
  const raw = (tail: string) => {
    const child = spawn(process.execPath, [BIN, "mcp"], { cwd: context.box.project, env: cleanEnv({ ...context.env, CLAIMS_HOLDER: "gone" }), stdio: ["pipe", "pipe", "pipe"] });
    const exited = new Promise((resolve) => child.on("close", resolve));
    const paths = Array.from({ length: 40 }, (_, index) => `./new-${index}.ts`);
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };
    const claim = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "claim", arguments: { paths, intent: "a bulk edit" } } };
    // Sent at once: the take starts, and the cancellation (or the end of stdin) arrives while it runs.
    child.stdin.end([initialize, { jsonrpc: "2.0", method: "notifications/initialized" }, claim].map((message) => `${JSON.stringify(message)}\n`).join("") + tail);
    return exited;
  };
  await raw(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2, reason: "the user pressed Esc" } })}\n`);
  const afterCancel = JSON.parse(context.cli(["status", "--json"]).stdout);
  assert.equal(afterCancel.claims.map((claim: { target: string }) => claim.target), [], "a cancelled claim left its paths held by an actor that never saw the grant");
  await raw("");
  const afterClose = JSON.parse(context.cli(["status", "--json"]).stdout);
  assert.equal(afterClose.claims.map((claim: { target: string }) => claim.target), [], "a claim whose client went away left its paths held");
  // A claim the client waits for is kept.
  const server = await context.server();
  assert.is((await server.call("claim", { paths: ["./kept.ts"] })).value.granted, true);
  assert.is(JSON.parse(context.cli(["status", "--json"]).stdout).claims.length, 1);
});

Wire("should answer a call in progress when the client closes stdin, keep nothing that answer does not report, and exit 0", async (context) => {
  context.cli(["take", "cfg", "--holder", "session-a"]);
  const server = rawServer(context, { CLAIMS_HOLDER: "closing" });
  try {
    server.send({ jsonrpc: "2.0", id: "wait", method: "tools/call", params: { name: "claim", arguments: { paths: ["cfg"], wait: 100 } } });
    await until("the waiter to queue", () => queueFiles(context.box.dir).length === 1);
    // A second call, started as stdin ends: its take runs to its end, and is answered too.
    const paths = Array.from({ length: 40 }, (_, index) => `./new-${index}.ts`);
    server.child.stdin.end(`${JSON.stringify({ jsonrpc: "2.0", id: "bulk", method: "tools/call", params: { name: "claim", arguments: { paths } } })}\n`);
    assert.is(await server.exited, 0, "a clean exit");
    const waited = server.lines.find((line) => line.id === "wait");
    assert.ok(waited, "the wait's answer was written before the server exited");
    assert.is(waited.result.structuredContent.interrupted, true, JSON.stringify(waited));
    const bulk = server.lines.find((line) => line.id === "bulk");
    assert.ok(bulk, "the bulk claim's answer was written before the server exited");
    const held = JSON.parse(context.cli(["status", "--json"]).stdout).claims.map((claim: { target: string }) => claim.target).sort();
    const reported = bulk.result.structuredContent.granted === true ? bulk.result.structuredContent.results.map((entry: { target: string }) => entry.target) : [];
    assert.equal(held, ["cfg", ...reported].sort(), "held: what an answer reports, and nothing else");
    assert.equal(queueFiles(context.box.dir), []);
  } finally {
    if (server.child.exitCode === null) server.child.kill();
  }
});

Wire("should answer piped calls in their order: a get_status or handover after a claim never contradicts what that claim answers", async (context) => {
  for (const second of [
    { name: "get_status", arguments: { actor: "piped" } },
    { name: "handover", arguments: { path: "name:P", to: "someone-else", actor: "piped" } },
  ]) {
    const child = spawn(process.execPath, [BIN, "mcp"], { cwd: context.box.project, env: cleanEnv(context.env), stdio: ["pipe", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (chunk) => (out += chunk));
    const exited = new Promise((resolve) => child.on("close", resolve));
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };
    // A script piping its requests in, then closing stdin while the claim runs.
    const messages = [initialize, { jsonrpc: "2.0", method: "notifications/initialized" }, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "claim", arguments: { paths: ["name:P"], actor: "piped" } } }, { jsonrpc: "2.0", id: 3, method: "tools/call", params: second }];
    child.stdin.end(messages.map((message) => `${JSON.stringify(message)}\n`).join(""));
    assert.is(await exited, 0);
    const answers = out.trim().split("\n").map((line) => JSON.parse(line));
    const claim = answers.find((line) => line.id === 2)?.result.structuredContent;
    const after = answers.find((line) => line.id === 3)?.result;
    const kept = claim?.granted === true;
    const held = JSON.parse(context.cli(["status", "--json"]).stdout).claims.map((entry: { holder: string }) => entry.holder);
    if (second.name === "get_status") {
      const listed = after.structuredContent.claims.some((entry: { path: string; mine: boolean }) => entry.path === "P" && entry.mine);
      assert.is(listed, kept, `get_status says P is held (${listed}) where the claim says ${JSON.stringify(claim)}`);
      assert.equal(held, kept ? ["piped"] : [], "held: what the claim's answer reports");
    } else {
      const handed = after.isError !== true;
      assert.is(handed, kept, `the handover ran (${JSON.stringify(after)}) where the claim says ${JSON.stringify(claim)}`);
      assert.equal(held, kept ? ["someone-else"] : []);
    }
    context.cli(["release", "name:P", "--holder", "piped"]);
    context.cli(["release", "name:P", "--holder", "someone-else"]);
  }
});

Wire("should run a get_status sent right after a claim's wait once the wait has queued, and list it queued", async (context) => {
  // The wait runs beside the calls after it, but only once it has looked: a get_status sent with it
  // listed nothing queued in half the runs.
  assert.is(context.cli(["take", "name:W", "--holder", "session-a"]).code, 0);
  const server = await context.server();
  for (let round = 0; round < 4; round++) {
    const waiting = server.call("claim", { paths: ["name:W"], wait: 30, actor: "w" });
    const status = await server.call("get_status", { actor: "w" });
    assert.equal(status.value.queued.map((note: { path: string }) => note.path), ["W"], `round ${round}`);
    assert.is(context.cli(["release", "name:W", "--holder", "session-a"]).code, 0);
    assert.is((await waiting).value.granted, true);
    assert.is(context.cli(["handover", "name:W", "--holder", "w", "--to", "session-a"]).code, 0);
  }
});

/** A tools/call its client cancels at once (its timeout), on a server of its own; resolves once that server has exited. */
function cancelledAtOnce(context: Context, params: object): Promise<unknown> {
  const child = spawn(process.execPath, [BIN, "mcp"], { cwd: context.box.project, env: cleanEnv(context.env), stdio: ["pipe", "pipe", "pipe"] });
  const exited = new Promise((resolve) => child.on("close", resolve));
  const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } };
  const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2, reason: "timed out" } };
  child.stdin.end([initialize, { jsonrpc: "2.0", method: "notifications/initialized" }, { jsonrpc: "2.0", id: 2, method: "tools/call", params }, cancel].map((message) => `${JSON.stringify(message)}\n`).join(""));
  return exited;
}

const bulkReservation = (context: Context) => ({
  name: "file_reservation_paths",
  arguments: { project_key: context.box.project, agent_name: "agent-1", paths: Array.from({ length: 40 }, (_, index) => `new-${index}.ts`), idempotency_key: "bulk-1" },
});

Wire("should let a reservation cancelled mid-take be retried with its idempotency key, taking afresh", async (context) => {
  const reserve = bulkReservation(context);
  // The client's timeout: the take runs to its end, its grants are given back, and the client retries with the same key.
  await cancelledAtOnce(context, reserve);
  assert.equal(JSON.parse(context.cli(["status", "--json"]).stdout).claims, [], "the cancelled take kept nothing");
  const server = await context.server();
  const retry = await server.call(reserve.name, reserve.arguments);
  assert.is(retry.value.idempotent_replay, undefined, "no answer of the key reached anyone: nothing to replay");
  assert.is(retry.value.granted.length, 40, JSON.stringify(retry.value).slice(0, 300));
  assert.is(JSON.parse(context.cli(["status", "--json"]).stdout).claims.length, 40);
  assert.is((await server.call(reserve.name, reserve.arguments)).value.idempotent_replay, true, "the retry's answer is the key's now");
});

Wire("should keep what the client's retry with the key is told it holds, though the call it retried was cancelled and gave its grants back", async (context) => {
  // The client times out, cancels, and retries with the same key at once: the retry reaches the
  // server while the first call's take is done and its give-back not yet, and is answered from the
  // key. What it is told it holds must stay held when the first call gives its grants back.
  const server = rawServer(context);
  try {
    const reserve = bulkReservation(context);
    const call = (id: number) => ({ jsonrpc: "2.0", id, method: "tools/call", params: reserve });
    const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2, reason: "timed out" } };
    server.child.stdin.write([call(2), cancel, call(3)].map((message) => `${JSON.stringify(message)}\n`).join(""));
    const retry = (await server.answerTo(3)).result.structuredContent;
    server.child.stdin.end();
    assert.is(await server.exited, 0);
    const held = JSON.parse(context.cli(["status", "--json"]).stdout).claims.map((claim: { target: string }) => claim.target).sort();
    assert.is(retry.granted.length, 40, JSON.stringify(retry).slice(0, 300));
    assert.is(held.length, retry.granted.length, `the retry was told it holds ${retry.granted.length} paths${retry.idempotent_replay ? " (from the key)" : ""}; held: ${held.length}`);
  } finally {
    if (server.child.exitCode === null) server.child.kill();
  }
});

Wire("should keep nothing a handover took of a free path when the client cancels it", async (context) => {
  // A handover queues behind a holder, or takes a free path at once: an actor that never saw that
  // grant would hold the path, unknowing, for a TTL.
  await cancelledAtOnce(context, { name: "handover", arguments: { path: "./free.ts", intent: "later" } });
  assert.equal(JSON.parse(context.cli(["status", "--json"]).stdout).claims, [], "the cancelled handover kept the path it took");
  const server = await context.server();
  assert.is((await server.call("handover", { path: "./free.ts" })).value.granted, true, "a handover the client waits for keeps it");
});

Wire("should give a reservation switched between exclusive and shared back to the mode it had when the client cancels the call", async (context) => {
  const server = await context.server();
  const reserve = (paths: string[], exclusive: boolean) => ({ project_key: context.box.project, agent_name: "agent-1", paths, exclusive });
  assert.is((await server.call("file_reservation_paths", { ...reserve(["x.ts"], true), reason: "edit x" })).value.granted.length, 1);
  const held = () => JSON.parse(context.cli(["status", "--json"]).stdout).claims.map((claim: { holder: string; mode?: string; purpose: string; taken_at: string }) => [claim.holder, claim.mode ?? "exclusive", claim.purpose, claim.taken_at]);
  const before = held();
  // The switch to shared is answered to nobody: the agent still holds x.ts exclusively, as it did.
  await cancelledAtOnce(context, { name: "file_reservation_paths", arguments: reserve(["x.ts", ...Array.from({ length: 40 }, (_, index) => `new-${index}.ts`)], false) });
  assert.equal(held(), before, "the cancelled call left the agent without the reservation it had before it");
});

Wire("should let no other agent share a reservation the agent held exclusively while a cancelled call switching it to shared gives it back", async (context) => {
  // agent-1 holds x.ts exclusively and asks to share it; the client cancels that call, and another
  // agent's shared reservation of x.ts reaches the server between its take and its give-back.
  const server = rawServer(context);
  try {
    const reserve = (id: number, agent: string, exclusive: boolean) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "file_reservation_paths", arguments: { project_key: context.box.project, agent_name: agent, paths: ["x.ts"], exclusive } } });
    server.send(reserve(1, "agent-1", true));
    assert.is((await server.answerTo(1)).result.structuredContent.granted.length, 1);
    const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2, reason: "timed out" } };
    server.child.stdin.write([reserve(2, "agent-1", false), cancel, reserve(3, "agent-2", false)].map((message) => `${JSON.stringify(message)}\n`).join(""));
    const other = (await server.answerTo(3)).result.structuredContent;
    server.child.stdin.end();
    assert.is(await server.exited, 0);
    const held = JSON.parse(context.cli(["status", "--json"]).stdout).claims.map((claim: { holder: string; mode?: string }) => `${claim.holder} ${claim.mode ?? "exclusive"}`).sort();
    // agent-1 was never told its switch: it holds x.ts exclusively, as before, and nobody shares it.
    assert.equal(held, ["agent-1 exclusive"], `agent-2 was told ${JSON.stringify(other.granted)}`);
    assert.equal(other.granted, []);
  } finally {
    if (server.child.exitCode === null) server.child.kill();
  }
});

Wire("should keep the reservation a later call told the agent it holds exclusively while an earlier call switching it to shared had yet to stand", async (context) => {
  // agent-1 holds x.ts exclusively, asks to share it, and at once (a hook, a subagent) to hold it
  // exclusively: the second call reaches the server between the first call's take and its answer.
  // Whatever each was told, the exclusive reservation the second was told of must still be held.
  const server = rawServer(context);
  try {
    const reserve = (id: number, agent: string, exclusive: boolean) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "file_reservation_paths", arguments: { project_key: context.box.project, agent_name: agent, paths: ["x.ts"], exclusive } } });
    server.send(reserve(1, "agent-1", true));
    assert.is((await server.answerTo(1)).result.structuredContent.granted.length, 1);
    server.child.stdin.write([reserve(2, "agent-1", false), reserve(3, "agent-1", true)].map((message) => `${JSON.stringify(message)}\n`).join(""));
    const shared = (await server.answerTo(2)).result.structuredContent;
    const exclusive = (await server.answerTo(3)).result.structuredContent;
    server.child.stdin.end();
    assert.is(await server.exited, 0);
    assert.is(shared.granted.length, 1, JSON.stringify(shared));
    assert.is(exclusive.granted.length, 1, JSON.stringify(exclusive));
    const held = JSON.parse(context.cli(["status", "--json"]).stdout).claims.map((claim: { holder: string; mode?: string }) => `${claim.holder} ${claim.mode ?? "exclusive"}`).sort();
    assert.equal(held, ["agent-1 exclusive"], `agent-1 was told last that it holds x.ts exclusively; held: ${JSON.stringify(held)}`);
  } finally {
    if (server.child.exitCode === null) server.child.kill();
  }
});

Wire("should keep what the actor's next claim is told it holds, though a cancelled call queued for it and was granted it from the queue before its give-back", async (context) => {
  // agent-1 queues for x.ts (agent-2 holds it); the client cancels that call. Before its give-back,
  // agent-2 releases x.ts (granted to agent-1 from the queue), and agent-1's next claim of x.ts (a
  // subagent's) is answered: agent-1 holds it. The give-back must leave it.
  const server = rawServer(context);
  try {
    const call = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
    server.send(call(1, "claim", { paths: ["x.ts"], creating: true, actor: "agent-2" }));
    const first = (await server.answerTo(1)).result.structuredContent;
    assert.is(first.results[0].granted, true, JSON.stringify(first));
    const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2, reason: "timed out" } };
    server.child.stdin.write([call(2, "claim", { paths: ["x.ts"], creating: true, queue: true, actor: "agent-1" }), cancel, call(3, "release", { paths: ["x.ts"], creating: true, actor: "agent-2" }), call(4, "claim", { paths: ["x.ts"], creating: true, actor: "agent-1" })].map((message) => `${JSON.stringify(message)}\n`).join(""));
    const again = (await server.answerTo(4)).result.structuredContent;
    server.child.stdin.end();
    assert.is(await server.exited, 0);
    const held = JSON.parse(context.cli(["status", "--json"]).stdout).claims.map((claim: { holder: string }) => claim.holder);
    if (again.results?.[0]?.granted === true) assert.equal(held, ["agent-1"], `agent-1 was told it holds x.ts: ${JSON.stringify(again)}`);
    else assert.equal(held, [], JSON.stringify(again));
  } finally {
    if (server.child.exitCode === null) server.child.kill();
  }
});

Wire("should give back what a cancelled call's queued interest was granted before its give-back, nobody told of it", async (context) => {
  const server = rawServer(context);
  try {
    const call = (id: number, name: string, args: Record<string, unknown>) => ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } });
    server.send(call(1, "claim", { paths: ["x.ts"], creating: true, actor: "agent-2" }));
    assert.is((await server.answerTo(1)).result.structuredContent.results[0].granted, true);
    const cancel = { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2, reason: "timed out" } };
    server.child.stdin.write([call(2, "claim", { paths: ["x.ts"], creating: true, queue: true, actor: "agent-1" }), cancel, call(3, "release", { paths: ["x.ts"], actor: "agent-2" })].map((message) => `${JSON.stringify(message)}\n`).join(""));
    await server.answerTo(3);
    server.child.stdin.end();
    assert.is(await server.exited, 0);
    const held = JSON.parse(context.cli(["status", "--json"]).stdout).claims.map((claim: { holder: string }) => claim.holder);
    assert.equal(held, [], "agent-1 was told nothing of x.ts");
  } finally {
    if (server.child.exitCode === null) server.child.kill();
  }
});

Wire("should keep what an answered reservation granted when a retry with its idempotency key is cancelled", async (context) => {
  const reserve = bulkReservation(context);
  const server = await context.server();
  assert.is((await server.call(reserve.name, reserve.arguments)).value.granted.length, 40);
  // The retry replays that answer and takes nothing: cancelled, it has nothing of its own to give back.
  await cancelledAtOnce(context, reserve);
  assert.is(JSON.parse(context.cli(["status", "--json"]).stdout).claims.length, 40, "the grants the first answer told of are still held");
  assert.is((await server.call(reserve.name, reserve.arguments)).value.idempotent_replay, true, "and the key still replays that answer");
});

Wire("should act for the agent session's own holder, CLAIMS_HOLDER, the --holder flag, or the call's actor", async (context) => {
  const session = await context.server({ env: { CLAUDE_CODE_SESSION_ID: "4f1c" } });
  assert.is((await session.call("claim", { paths: ["a.ts"] })).value.actor, "claude-4f1c", "the holder the hook and the shell derive");
  const shell = context.cli(["take", "./a.ts", "--json"], { CLAUDE_CODE_SESSION_ID: "4f1c" });
  assert.is(shell.code, 0, "the session's shell holds what its MCP server took");
  const named = await context.server({ env: { CLAIMS_HOLDER: "holder-env", CLAUDE_CODE_SESSION_ID: "4f1c" } });
  const standIn = await named.call("get_status");
  assert.is(standIn.value.actor, "holder-env");
  // Said, as the CLI says it: every session started where CLAIMS_HOLDER is exported would be one holder.
  assert.equal(standIn.value.warnings, ["CLAIMS_HOLDER=holder-env stands in for this agent session's own holder, claude-4f1c, which its hooks claim as; unset CLAIMS_HOLDER where agents run (every session that inherits it is one holder), or pass --holder claude-4f1c"]);
  assert.is((await named.call("get_status", { actor: "role-reviewer" })).value.warnings, undefined, "not where the call names its actor");
  assert.is((await session.call("get_status")).value.warnings, undefined, "nor where no CLAIMS_HOLDER stands in");
  const flagged = await context.server({ args: ["--holder", "holder-flag"] });
  assert.is((await flagged.call("get_status")).value.actor, "holder-flag");
  assert.is((await flagged.call("get_status", { actor: "role-reviewer" })).value.actor, "role-reviewer");
});

Wire("should act, after /clear, for the session the hooks carried the claims to: its own writes pass the hook", async (context) => {
  // The client runs the hooks and the server; /clear changes the session id, not the server's environment.
  const hook = (payload: object) => spawnSync(process.execPath, [BIN, "hook", "claude"], { input: JSON.stringify(payload), env: cleanEnv({ ...context.env, CLAUDE_PID: String(process.pid) }), encoding: "utf8" });
  const clear = (from: string, to: string) => {
    hook({ session_id: from, cwd: context.box.project, hook_event_name: "SessionEnd", reason: "clear" });
    hook({ session_id: to, cwd: context.box.project, hook_event_name: "SessionStart", source: "clear" });
  };
  const edit = (session: string, file: string) => hook({ session_id: session, cwd: context.box.project, hook_event_name: "PreToolUse", tool_name: "Edit", tool_use_id: `t-${session}`, tool_input: { file_path: join(context.box.project, file), old_string: "1", new_string: "2" } });
  const denied = (result: ReturnType<typeof hook>) => /"permissionDecision":"deny"/.test(result.stdout);
  const server = await context.server({ env: { CLAUDE_CODE_SESSION_ID: "s1" } });
  const other = await context.server({ env: { CLAUDE_CODE_SESSION_ID: "elsewhere" } });
  assert.is((await server.call("claim", { paths: ["./a.ts"] })).value.actor, "claude-s1");
  clear("s1", "s2");
  const after = await server.call("claim", { paths: ["./utils.ts"] });
  assert.equal([after.value.actor, after.value.granted], ["claude-s2", true], "the new session, not the one /clear ended");
  assert.not.ok(denied(edit("s2", "utils.ts")), "the session may write what its server claimed after /clear");
  assert.not.ok(denied(edit("s2", "a.ts")), "and what it claimed before, carried over");
  const held = JSON.parse(context.cli(["status", "--json"]).stdout).claims.map((claim: { target: string; holder: string }) => [claim.target, claim.holder]);
  assert.equal(held.sort(), [[join(context.box.project, "a.ts"), "claude-s2"], [join(context.box.project, "utils.ts"), "claude-s2"]], "nothing left with the old id");
  clear("s2", "s3");
  assert.is((await server.call("get_status")).value.actor, "claude-s3", "each /clear in turn");
  assert.is((await other.call("get_status")).value.actor, "claude-elsewhere", "another session's server is not moved");
  assert.ok(denied(edit("elsewhere", "a.ts")), "and is still refused what this session holds");
});

Wire("should act, after /resume, for the session resumed; and not follow another client process's /clear", async (context) => {
  // This test process stands for the client that starts the servers; a sleeping child for another client.
  const other = spawn("sleep", ["60"], { stdio: "ignore" });
  try {
    const hook = (client: number, payload: object) => spawnSync(process.execPath, [BIN, "hook", "claude"], { input: JSON.stringify({ cwd: context.box.project, ...payload }), env: cleanEnv({ ...context.env, CLAUDE_PID: String(client) }), encoding: "utf8" });
    hook(process.pid, { session_id: "s1", hook_event_name: "SessionStart", source: "startup" });
    const server = await context.server({ env: { CLAUDE_CODE_SESSION_ID: "s1" } });
    hook(process.pid, { session_id: "s1", hook_event_name: "SessionEnd", reason: "clear" });
    hook(process.pid, { session_id: "s2", hook_event_name: "SessionStart", source: "clear" });
    assert.is((await server.call("get_status")).value.actor, "claude-s2");
    hook(process.pid, { session_id: "s1", hook_event_name: "SessionStart", source: "resume" });
    assert.is((await server.call("claim", { paths: ["./a.ts"] })).value.actor, "claude-s1", "/resume of the first session in the same client");

    // Another client ran session r1 and cleared it to r2; this client resumes r1 (claude --resume keeps the id).
    assert.ok(other.pid);
    hook(other.pid as number, { session_id: "r1", hook_event_name: "SessionStart", source: "startup" });
    hook(other.pid as number, { session_id: "r1", hook_event_name: "SessionEnd", reason: "clear" });
    hook(other.pid as number, { session_id: "r2", hook_event_name: "SessionStart", source: "clear" });
    const resumed = await context.server({ env: { CLAUDE_CODE_SESSION_ID: "r1" } });
    const claimed = await resumed.call("claim", { paths: ["./b.ts"] });
    assert.equal([claimed.value.actor, claimed.value.granted], ["claude-r1", true], "the resumed session, not the one the other client went on to");
    const held = JSON.parse(context.cli(["status", "--json"]).stdout).claims.map((claim: { target: string; holder: string }) => [claim.target, claim.holder]);
    assert.equal(held.sort(), [[join(context.box.project, "a.ts"), "claude-s1"], [join(context.box.project, "b.ts"), "claude-r1"]]);
  } finally {
    other.kill();
  }
});

Wire("should refuse to start on a bad --ttl or a file as --dir, with the CLI's sentence and exit 2", async (context) => {
  const result = context.cli(["mcp", "--ttl", "0"]);
  assert.is(result.code, 2);
  assert.match(result.stderr, /--ttl must be whole seconds from 1 to 2592000/);
  writeFileSync(join(context.box.root, "a-file"), "");
  const file = context.cli(["mcp", "--dir", join(context.box.root, "a-file")]);
  assert.equal([file.code, file.stderr.trim()], [2, `claims: The claims directory ${join(context.box.root, "a-file")} is not a directory; point --dir or CLAIMS_DIR at a directory.`]);
  const long = join(context.box.root, "a".repeat(300));
  const tooLong = context.cli(["mcp", "--dir", long]);
  assert.equal([tooLong.code, tooLong.stderr.trim()], [2, `claims: Cannot reach the claims directory ${long}: a name in its path is longer than the file system allows (ENAMETOOLONG); fix it or choose another with --dir or CLAIMS_DIR.`]);
  const taken = context.cli(["take", "x", "--dir", long, "--holder", "h"]);
  assert.equal([taken.code, taken.stderr.trim()], [2, tooLong.stderr.trim()], "the CLI says the same, not an internal error");
  const holder = context.cli(["mcp"], { CLAIMS_HOLDER: "a\tb" });
  assert.is(holder.code, 2, "a CLAIMS_HOLDER no call could act as stops the server at start");
  assert.match(holder.stderr, /CLAIMS_HOLDER/);
});

Wire("should refuse more paths in one call than it may take at once, and say on stderr why it closes a connection whose message is larger than 10 MiB", async (context) => {
  const server = await context.server();
  const many = await server.call("claim", { paths: Array.from({ length: 1001 }, (_, index) => `./many/file-${index}.ts`) });
  assert.is(many.isError, true);
  assert.match(many.text, /paths holds 1001 paths, more than the 1000 one call may name; claim their directory \(dir\/\) or a glob instead, or split the call/);
  assert.equal(JSON.parse(context.cli(["status", "--json"]).stdout).claims, [], "nothing taken");
  const child = spawn(process.execPath, [BIN, "mcp"], { cwd: context.box.project, env: cleanEnv(context.env), stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  child.stdin.on("error", () => {}); // the server stops reading
  const exited = new Promise((resolve) => child.on("close", resolve));
  const paths = Array.from({ length: 250_000 }, (_, index) => `./generated/a-long-directory-name/file-${index}.ts`); // 14 MB
  child.stdin.end(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "claim", arguments: { paths } } })}\n`);
  await exited;
  assert.match(stderr, /^claims mcp: a message from the client was larger than the 10 MiB one message may be, so the connection is closed; send fewer paths per call\.$/m);
});

Wire.run();
