// The torture workers' seeded choices: mulberry32, small, seedable, good enough to pick operations.
// The same seed gives a worker the same sequence, so a failing run can be replayed.

/** random() in [0, 1) and pick(list), from `seed`. */
export function seeded(seed) {
  let state = Number(seed) >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { random, pick: (list) => list[Math.floor(random() * list.length)] };
}
