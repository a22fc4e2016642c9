// Who an MCP tool call acts for (docs/MCP.md, "Identity"): the call's own `actor` (or
// `agent_name`); else the server's --holder or CLAIMS_HOLDER; else the holder the agent's hooks and
// shell derive in the same session (the session the call's `_meta` names, as Codex's do, or
// CLAUDE_CODE_SESSION_ID in the server's environment, as Claude Code gives it), so that MCP, hook
// and shell act as one holder and a refusal's suggested command acts for the session that was
// refused; else an id made for this connection.
import { randomBytes } from "node:crypto";
import { BadInputError } from "../os/errors.js";
import { resolveHolder, type Environment } from "../protocol/settings.js";
import { clientSessions } from "../protocol/hook-files.js";
import { processStartTime, readProcessStat } from "../os/process-identity.js";

export class Identity {
  private connectionHolder: string | undefined;
  /** The session holder after every `/clear` learned so far (see sessionHolder). */
  private currentSession: string | undefined;

  constructor(
    private readonly flag: string | undefined,
    private readonly env: Environment,
    /** The client's name from its `initialize` request, once it has sent one. */
    private readonly clientName: () => string | undefined,
    /** The claims directory, where the hooks record the session each `/clear` started. */
    private readonly claimsDir: string,
  ) {}

  /**
   * The holder a call acts for: its own actor when it names one. An unusable id is bad input
   * naming `argument`. `meta` is the call's `_meta`, where a client may name its session.
   */
  holderFor(actor: string | undefined, argument = "actor", meta?: Record<string, unknown>): string {
    if (actor !== undefined) {
      try {
        return resolveHolder(actor, this.env);
      } catch (error) {
        if (!(error instanceof BadInputError)) throw error;
        throw new BadInputError(error.message.replace(/^(--)?holder\b/, argument)); // the library calls it holder
      }
    }
    if (this.flag !== undefined || this.env.CLAIMS_HOLDER) return resolveHolder(this.flag, this.env);
    return this.callSessionHolder(meta) ?? this.sessionHolder() ?? this.forConnection();
  }

  /**
   * Codex gives its MCP servers none of its session variables (their environment is an allow-list:
   * HOME, PATH and the like), but names the session in every tool call's `_meta`, under
   * `x-codex-turn-metadata` (Codex 0.171.0). That session_id is the hook payload's and
   * CODEX_SESSION_ID in Codex's shell, so the holder is derived as the shell derives it. The key is
   * Codex's own; a generic one (`sessionId`) could mean anything in another client.
   */
  private callSessionHolder(meta: Record<string, unknown> | undefined): string | undefined {
    const turn = meta?.["x-codex-turn-metadata"];
    const session = typeof turn === "object" && turn !== null ? (turn as Record<string, unknown>).session_id : undefined;
    if (typeof session !== "string" || session === "") return undefined;
    try {
      return resolveHolder(undefined, { CODEX_SESSION_ID: session });
    } catch {
      return undefined; // not a usable id (control characters, too long): as if none were given
    }
  }

  /**
   * The id the hooks and the shell derive from the agent's session variable. resolveHolder falls
   * back to a per-terminal id, which is no session: two clients started from one terminal would
   * share it, so it is not used here.
   */
  private sessionHolder(): string | undefined {
    let holder: string;
    try {
      holder = resolveHolder(undefined, this.env);
    } catch {
      return undefined;
    }
    return holder.startsWith("tty-") ? undefined : this.sessionNow(holder);
  }

  /**
   * `/clear` and `/resume` go on in the same client as another session id, but this server's
   * environment keeps the id it was started with: acting for it would claim as a session that is
   * over (or another process's), and the hooks of the one now running would refuse the agent its
   * own claims. The hooks record at each SessionStart which session their client process runs
   * (src/protocol/hook-files.ts), and the server follows the record of the client it runs under,
   * once that record names a session this server has acted for: a server started by another
   * client (a `--resume` of the session elsewhere, a client run by an agent's shell) is not moved.
   * Once learned, a session is kept, as sweep removes a record whose client is gone.
   */
  private sessionNow(started: string): string {
    const known = this.currentSession ?? started;
    for (const client of this.clients()) {
      const record = clientSessions(this.claimsDir, client);
      if (record === undefined || !(record.sessions.includes(known) || record.sessions.includes(started))) continue;
      try {
        this.currentSession = resolveHolder(record.holder, this.env);
      } catch {
        // not a usable id: stay with the last one that was
      }
      break;
    }
    return this.currentSession ?? started;
  }

  private clientIds: string[] | undefined;

  /**
   * The processes this server runs under, nearest first, named as the hooks name their client
   * (src/hooks/state.ts clientProcess: pid and start time): CLAUDE_PID where the client set it,
   * then the parent, and up (a client may start the server through npx or a shell).
   */
  private clients(): string[] {
    if (this.clientIds !== undefined) return this.clientIds;
    const ids: string[] = [];
    const claudePid = Number(this.env.CLAUDE_PID);
    const claudeStart = claudePid > 0 ? processStartTime(claudePid) : undefined;
    if (claudeStart !== undefined) ids.push(`${claudePid}-${claudeStart}`);
    let pid = process.ppid;
    for (let level = 0; level < 8 && pid > 1; level++) {
      const stat = readProcessStat(pid);
      if (stat === undefined || !Number.isFinite(stat.start)) break;
      ids.push(`${pid}-${stat.start}`);
      pid = stat.ppid;
    }
    this.clientIds = ids;
    return ids;
  }

  /**
   * `claude-code-4711-3fa2c81d09e4`: the client's name, this server's pid and a random suffix. A stdio
   * server serves one connection, and no two live processes share a pid, so two connections never
   * get one id; the suffix keeps a reused pid from inheriting an old connection's claims.
   */
  private forConnection(): string {
    if (this.connectionHolder === undefined) {
      const name = (this.clientName() ?? "")
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-+|-+$/g, "")
        .slice(0, 40);
      this.connectionHolder = `${name || "mcp"}-${process.pid}-${randomBytes(6).toString("hex")}`;
    }
    return this.connectionHolder;
  }
}
