// curl and wget: the files they save, named by an option (`-o`, `-O`, `-D`, a log, a WARC archive),
// by the URL's last path segment (curl -O, wget without -O), or, where a server, a config file or a
// recursion decides, not in the text at all: anything under the directory they save into, or any file.
import { isAbsolute } from "node:path";
import { GLOB_MARK } from "./payload.js";
import { valuedLong } from "./shell-options.js";
import { globOf, optionFiles, placeOf, type Rule } from "./shell-rule.js";
import { anyIn, anyUnder, shellQuoted, UNKNOWABLE, within } from "./shell-words.js";

/** curl: -o's files (in --output-dir), -O's names from the URLs, the headers, cookies, traces and logs it is asked to save, and the HSTS and Alt-Svc caches it keeps (`--hsts f`, `--alt-svc f`, written when it exits). */
export const curlRule: Rule = {
  // Every curl option with a value has its letter here, so that none hides an -o after it.
  syntax: {
    short: "A:b:c:C:d:D:e:E:F:H:K:m:o:P:Q:r:t:T:u:U:w:x:X:y:Y:z:",
    long: {
      output: "o",
      "output-dir": ":",
      "remote-name": "O",
      "remote-name-all": "",
      config: "K",
      globoff: "g",
      url: ":",
      "dump-header": "D",
      "cookie-jar": "c",
      trace: ":",
      "trace-ascii": ":",
      stderr: ":",
      "etag-save": ":",
      libcurl: ":",
      hsts: ":",
      "alt-svc": ":",
      ...valuedLong(`data-ascii data-binary data-raw data-urlencode json form-string connect-timeout max-time retry retry-delay
        retry-max-time cacert capath cert-type key key-type pass resolve connect-to proto proto-redir limit-rate max-filesize
        interface noproxy proxy-user oauth2-bearer aws-sigv4 request-target variable expect100-timeout max-redirs unix-socket
        abstract-unix-socket dns-servers happy-eyeballs-timeout-ms keepalive-time speed-limit speed-time`),
    },
  },
  writes: (input) => {
    const { args, reading, walk } = input;
    const directory = placeOf(reading, "output-dir", walk.cwd); // where -o's and -O's relative names land
    const into = (file: string) => (!reading.has("output-dir") ? [file] : isAbsolute(file) ? [file, within(directory, file.slice(1))] : [within(directory, file)]);
    const files = optionFiles(input, ["o"]).flatMap(into);
    // -O (--remote-name-all): the URL's last path segment, without query or fragment. -J asks the
    // server for a name, but curl creates that file only where none exists, and uses the URL's otherwise.
    const urls = [...reading.operands.map((at) => args[at]), ...reading.values("url")];
    const remote = !reading.has("O", "remote-name-all")
      ? []
      : urls.flatMap((url) => {
          if (url === undefined) return [anyIn(directory)];
          const name = urlName(url, false);
          // curl's URL globbing (`file[1-3].txt`, `{a,b}.txt`) fetches several: any name of that shape.
          return name === "" ? [] : /[[{]/.test(name) && !reading.has("g") ? [within(directory, GLOB_MARK + name.replace(/\[[^\]]*\]|\{[^}]*\}/g, "*"))] : into(name);
        });
    // -K: a config file can name any output (a `-` reads it from stdin).
    const config = reading.has("K") ? [UNKNOWABLE] : [];
    return [...files, ...remote, ...config, ...optionFiles(input, ["D", "c", "trace", "trace-ascii", "stderr", "etag-save", "libcurl", "hsts", "alt-svc"])];
  },
};

/** wget: -O's document, the logs, the WARC archive and --hsts-file's cache, and the files it fetches under -P's directory. */
export const wgetRule: Rule = {
  syntax: {
    short: "a:A:B:D:e:i:I:l:n:o:O:P:Q:R:t:T:U:w:X:",
    long: {
      "output-document": "O",
      "output-file": "o",
      "append-output": "a",
      "directory-prefix": "P",
      execute: "e",
      "input-file": "i",
      recursive: "r",
      mirror: "m",
      "page-requisites": "p",
      "force-directories": "x",
      spider: "",
      "content-disposition": "",
      "trust-server-names": "",
      "convert-links": "k",
      "backup-converted": "K",
      "no-warc-compression": "",
      "warc-cdx": "",
      config: ":",
      "rejected-log": ":",
      "save-cookies": ":",
      ...valuedLong(`header user password http-user http-password proxy-user proxy-password ftp-user ftp-password post-data post-file
        body-data body-file method referer load-cookies default-page restrict-file-names bind-address limit-rate certificate
        certificate-type private-key private-key-type ca-certificate ca-directory crl-file pinnedpubkey random-file egd-file ciphers
        secure-protocol hsts-file dns-timeout connect-timeout read-timeout waitretry retry-on-http-error report-speed progress
        start-pos prefer-family local-encoding remote-encoding use-askpass cut-dirs compression max-redirect backups
        accept-regex reject-regex regex-type exclude-domains follow-tags ignore-tags warc-file warc-header warc-max-size
        warc-dedup warc-tempdir`),
    },
  },
  // (`--use-askpass=PROGRAM`: the program it runs for a user name and a password.)
  runsLines: (input) => input.reading.values("use-askpass").map((program) => (program === undefined ? undefined : shellQuoted(program))),
  writes: (input) => {
    const { args, reading, walk } = input;
    // The document, the log, and the WARC archive: F.warc.gz (F.warc uncompressed; F-NNNNN.warc.gz
    // and F-meta.warc.gz when split by size; F.cdx with --warc-cdx).
    const warc = optionFiles(input, ["warc-file"]).flatMap((file) => [
      `${file}.warc${reading.has("no-warc-compression") ? "" : ".gz"}`,
      ...(reading.has("warc-max-size") ? [globOf(`${file}-*.warc*`)] : []),
      ...(reading.has("warc-cdx") ? [`${file}.cdx`] : []),
    ]);
    const logs = [...optionFiles(input, ["O", "o", "a", "rejected-log", "save-cookies", "hsts-file"]), ...warc];
    // A wgetrc command (-e) can set any output; the common ones that set none (robots=off) do not.
    if (reading.has("config") || !reading.values("e").every(setsNoOutput)) return [...logs, UNKNOWABLE];
    if (reading.has("O", "spider")) return logs;
    // Without -O, each URL's last path segment (index.html for none), in -P's directory.
    const directory = placeOf(reading, "P", walk.cwd);
    // Recursion, -x's host directories, -i's list of URLs, a name the server gives: files under it that the text does not name.
    if (reading.has("r", "m", "p", "x", "i", "content-disposition", "trust-server-names")) return [...logs, anyUnder(directory)];
    const files = reading.operands.map((at) => args[at]).map((url) => (url === undefined ? anyIn(directory) : within(directory, urlName(url, true) || "index.html")));
    // -K keeps each file it converts as f.orig; --backups=N rotates the one it replaces to f.1…f.N.
    const kept = files.flatMap((file) => [...(reading.has("K") ? [`${file}.orig`] : []), ...(reading.has("backups") ? [globOf(`${file}.[0-9]*`)] : [])]);
    return [...logs, ...files, ...kept];
  },
};

/**
 * wgetrc settings (`wget -e key=value`) that name no file and move none: how to fetch, not where
 * to write. wget reads a key without case, `_` or `-` (user_agent, useragent).
 */
const WGETRC_NO_OUTPUT = new Set(
  `robots useragent timeout readtimeout connecttimeout dnstimeout tries wait waitretry randomwait checkcertificate httpsonly
   verbose quiet serverresponse showprogress progress httpproxy httpsproxy ftpproxy noproxy useproxy inet4only inet6only
   preferfamily maxredirect header compression cache cookies limitrate retryconnrefused`.split(/\s+/),
);

function setsNoOutput(command: string | undefined): boolean {
  const equals = command?.indexOf("=") ?? -1;
  if (command === undefined || equals === -1) return false;
  return WGETRC_NO_OUTPUT.has(command.slice(0, equals).trim().toLowerCase().replace(/[-_]/g, ""));
}

/** The last segment of a URL's path (curl drops the query, wget keeps it); "" where it has none. */
function urlName(url: string, keepQuery: boolean): string {
  const rest = url.replace(/#.*$/s, "").replace(/^([A-Za-z][\w+.-]*:\/\/)?[^/?]*/, "");
  const query = rest.indexOf("?");
  const path = query === -1 ? rest : rest.slice(0, query);
  const name = path.slice(path.lastIndexOf("/") + 1);
  return name === "" || !keepQuery || query === -1 ? name : name + rest.slice(query);
}
