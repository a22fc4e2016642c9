// Suggested commands in messages are pasted into a shell as they are printed.
/** Quotes an argument for a shell, so a suggested command can be pasted as it is. */
export function shellQuote(argument: string): string {
  return /^[\w./:@%+=,-]+$/.test(argument) ? argument : `'${argument.replace(/'/g, "'\\''")}'`;
}
