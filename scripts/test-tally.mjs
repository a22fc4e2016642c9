// What one test file's uvu run counts (scripts/test.mjs), read from its output and exit code.
//
// uvu's own "Total" is the tests it ran: a skipped test is counted under "Skipped" alone. The
// total returned here counts the skipped ones too (passed + skipped + failed); scripts/test.mjs's
// summary says Total as uvu does, the tests run, so that Total - Passed is the failures there too.

const plain = (text) => text.replace(/\x1b\[[0-9;]*m/g, "");

/**
 * `output`: what the file's uvu process printed; `code`: its exit code. A runner that died before
 * its summary, or a file that registered no test (none run, none skipped), counts as one failure;
 * a file whose tests were all skipped (one that needs root, run without) fails nothing. The last
 * summary printed is read, not a test's own output before it.
 */
export function tally(output, code) {
  const text = plain(output);
  const read = (label) => {
    const found = [...text.matchAll(new RegExp(`^\\s*${label}:\\s+(\\d+)\\s*$`, "gm"))];
    return found.length > 0 ? Number(found[found.length - 1][1]) : 0;
  };
  const ran = read("Total");
  const passed = read("Passed");
  const skipped = read("Skipped");
  const failed = Math.max(ran - passed, code !== 0 || ran + skipped === 0 ? 1 : 0);
  return { total: passed + skipped + failed, passed, skipped, failed };
}
