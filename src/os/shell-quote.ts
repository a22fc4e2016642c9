// Suggested commands in messages are pasted into a shell as they are printed.
import { CONTROL, INVISIBLE, printable } from "./printable.js";

/** Quotes an argument for a shell, so a suggested command can be pasted as it is. */
export function shellQuote(argument: string): string {
  return /^[\w./:@%+=,-]+$/.test(argument) ? argument : `'${argument.replace(/'/g, "'\\''")}'`;
}

/**
 * Quotes an argument for a suggested command shown to a person: one with a control, invisible or
 * direction-changing character goes in bash's $'…' with the character escaped (`$'x\u200by'`), so
 * the command shows what it names (printable) and still names it when pasted into bash or zsh.
 * Commands a shell runs unseen (hooks) keep shellQuote: sh need not know $'…'.
 */
export function shellQuoteShown(argument: string): string {
  if (!INVISIBLE.test(argument) && !CONTROL.test(argument)) return shellQuote(argument);
  return `$'${printable(argument.replace(/[\\']/g, (char) => `\\${char}`))}'`;
}
