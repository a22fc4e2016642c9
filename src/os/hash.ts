// SHA-256 and random names without node:crypto. Every claims call hashes a few short strings
// (claim names, lock names, versions: docs/PROTOCOL.md sections 3 and 6), and loading node:crypto
// costs each call about 2.5 ms, some 5% of Node's own start-up, most of it in modules (ciphers,
// keys, X.509, streams) that a claim never uses (docs/BENCHMARKS.md). The inputs are a few hundred
// bytes, so the plain FIPS 180-4 algorithm below is as fast as the native one for them;
// test/hash.test.ts checks it against node:crypto.

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

const INITIAL = new Int32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

// Working memory, reused: a hash runs to completion before anything else can use it.
const state = new Int32Array(8);
/** The message schedule. */
const w = new Int32Array(64);
/** The last one or two blocks: the message's tail, a 0x80 byte, zeros, and the length in bits. */
const tail = new Uint8Array(128);

/**
 * The last few inputs and their hashes. A call hashes the same few things again and again (the
 * holder for its tag, a claim's bytes for its version at every read of it), and in a process that
 * lives for one call, before the JIT has compiled `compress`, each hash costs tens of microseconds.
 */
const recent: Array<{ data: string | Uint8Array; hex: string }> = [];
const RECENT = 8;
/** Longer inputs are hashed each time: comparing and keeping them would cost more than it saves. */
const RECENT_MAX_LENGTH = 4096;

function same(a: string | Uint8Array, b: string | Uint8Array): boolean {
  if (typeof a === "string" || typeof b === "string") return a === b;
  return a.length === b.length && Buffer.compare(a, b) === 0;
}

/** The SHA-256 of `data` (a string is hashed as its UTF-8 bytes), as 64 lower-case hex digits. */
export function sha256Hex(data: string | Uint8Array): string {
  if (data.length > RECENT_MAX_LENGTH) return hashOf(data);
  for (const seen of recent) if (same(seen.data, data)) return seen.hex;
  // A copy of bytes: the caller may reuse its buffer.
  const hex = hashOf(data);
  recent.unshift({ data: typeof data === "string" ? data : Uint8Array.prototype.slice.call(data), hex });
  if (recent.length > RECENT) recent.pop();
  return hex;
}

function hashOf(data: string | Uint8Array): string {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  state.set(INITIAL);
  const whole = bytes.length - (bytes.length % 64);
  for (let at = 0; at < whole; at += 64) compress(state, bytes, at);
  const rest = bytes.length - whole;
  const tailLength = rest + 9 > 64 ? 128 : 64;
  tail.fill(0);
  tail.set(bytes.subarray(whole), 0);
  tail[rest] = 0x80;
  const bits = bytes.length * 8;
  writeWord(tail, tailLength - 8, Math.floor(bits / 0x100000000));
  writeWord(tail, tailLength - 4, bits >>> 0);
  for (let at = 0; at < tailLength; at += 64) compress(state, tail, at);
  let hex = "";
  for (let i = 0; i < 8; i++) {
    const word = state[i] as number;
    hex += (HEX[word >>> 24] as string) + (HEX[(word >>> 16) & 0xff] as string) + (HEX[(word >>> 8) & 0xff] as string) + (HEX[word & 0xff] as string);
  }
  return hex;
}

/**
 * One 64-byte block at `at` of `bytes` into the state (FIPS 180-4, section 6.2.2). The rotations
 * are written out, not a function: a call lives for a few hashes, so this runs in V8's
 * interpreter, where 576 calls of a rotate function a block cost more than the arithmetic (a hook
 * call's six blocks: 0.5-1.2 ms with the calls, 0.3 ms without).
 */
function compress(state: Int32Array, bytes: Uint8Array, at: number): void {
  for (let i = 0; i < 16; i++) {
    const j = at + i * 4;
    w[i] = ((bytes[j] as number) << 24) | ((bytes[j + 1] as number) << 16) | ((bytes[j + 2] as number) << 8) | (bytes[j + 3] as number);
  }
  for (let i = 16; i < 64; i++) {
    const x = w[i - 15] as number;
    const y = w[i - 2] as number;
    const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
    const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
    w[i] = ((w[i - 16] as number) + s0 + (w[i - 7] as number) + s1) | 0;
  }
  let a = state[0] as number;
  let b = state[1] as number;
  let c = state[2] as number;
  let d = state[3] as number;
  let e = state[4] as number;
  let f = state[5] as number;
  let g = state[6] as number;
  let h = state[7] as number;
  for (let i = 0; i < 64; i++) {
    const t1 = (h + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + ((e & f) ^ (~e & g)) + (K[i] as number) + (w[i] as number)) | 0;
    const t2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
    h = g;
    g = f;
    f = e;
    e = (d + t1) | 0;
    d = c;
    c = b;
    b = a;
    a = (t1 + t2) | 0;
  }
  state[0] = (state[0] as number) + a;
  state[1] = (state[1] as number) + b;
  state[2] = (state[2] as number) + c;
  state[3] = (state[3] as number) + d;
  state[4] = (state[4] as number) + e;
  state[5] = (state[5] as number) + f;
  state[6] = (state[6] as number) + g;
  state[7] = (state[7] as number) + h;
}

function writeWord(bytes: Uint8Array, at: number, word: number): void {
  bytes[at] = word >>> 24;
  bytes[at + 1] = word >>> 16;
  bytes[at + 2] = word >>> 8;
  bytes[at + 3] = word;
}

/**
 * `digits` random hex digits, for a file name that must not collide with another process's
 * (temp names also carry the pid). Not for secrets: V8 seeds Math.random from the operating
 * system's entropy in every process, which is all a name needs.
 */
export function randomHex(digits: number): string {
  let hex = "";
  while (hex.length < digits) hex += Math.floor(Math.random() * 0x100000000).toString(16).padStart(8, "0");
  return hex.slice(0, digits);
}
