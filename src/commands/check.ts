// check: may I write these paths? 0 when every one is free or mine, 3 when another holder's fresh
// claim covers one. For shell scripts and git hooks: `claims check "$f" || exit 3`.
import { holderOf, judge, openContext, parseTargets, type CommonOptions, type Holding } from "../protocol.js";

export interface CheckOptions extends CommonOptions {
  targets: string[];
}

export interface CheckResult {
  /** Undefined when no holder could be resolved: then every fresh claim counts as another's. */
  holder?: string;
  allowed: string[];
  refused: Holding[];
}

export function check(options: CheckOptions): CheckResult {
  const context = openContext(options);
  let holder: string | undefined;
  try {
    holder = holderOf(options);
  } catch {
    holder = undefined;
  }
  const result: CheckResult = { allowed: [], refused: [] };
  if (holder !== undefined) result.holder = holder;
  for (const target of parseTargets(options.targets, context)) {
    const judgement = judge(context.store.read(target.fileName), target.canonical, holder, context);
    if (judgement.state === "held") result.refused.push(judgement.holding);
    else result.allowed.push(target.canonical);
  }
  return result;
}
