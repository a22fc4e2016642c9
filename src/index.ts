// The library API: the same verbs the CLI runs, returning plain result objects.
export { take, type TakeOptions, type TakeResult, type GrantedClaim } from "./commands/take.js";
export { beat, type BeatOptions, type BeatResult, type LostClaim } from "./commands/beat.js";
export { release, type ReleaseOptions, type ReleaseResult } from "./commands/release.js";
export { status, type StatusOptions, type StatusResult, type ClaimStatus, type UnreadableStatus } from "./commands/status.js";
export { check, type CheckOptions, type CheckResult } from "./commands/check.js";
export { sweep, type SweepOptions, type SweepResult } from "./commands/sweep.js";
export { type Claim, parseClaim, DEFAULT_TTL_SECONDS, MAX_TTL_SECONDS } from "./protocol/claim.js";
export { claimFileName, parseTarget, type Target } from "./targets/target.js";
export { ClaimsError, BadInputError, EXIT_CODES, type ErrorCode } from "./os/errors.js";
export type { CommonOptions, Holding } from "./protocol/context.js";
export { handover, type HandoverOptions, type TransferResult } from "./commands/handover.js";
export { log, type LogOptions, type LogResult } from "./commands/log.js";
export { doctor, type DoctorCheck, type DoctorOptions, type DoctorResult } from "./commands/doctor.js";
export { hook, type HookOptions, type HookAnswer } from "./hooks/hook.js";
export type { LogEntry } from "./protocol/log.js";
