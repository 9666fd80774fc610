// The odds helper: the chance that a bid "Q x F" is true from this seat's point of view,
// computed here in the browser from what the server sent this seat and nothing else (the
// same model as liarsdice/odds.py). Every die the viewer cannot see is an independent fair
// die, so the number of unseen dice that match is binomial; the dice the viewer can see
// (their own hidden dice, every shown die, an open stash) are counted exactly.

/** C(n, k) as a float (n is at most a few hundred dice). */
function choose(n, k) {
  if (k < 0 || k > n) return 0;
  k = Math.min(k, n - k);
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}

/** P(exactly k successes in n trials of probability p). */
export function probExactly(k, n, p) {
  if (k < 0 || k > n) return 0;
  return choose(n, k) * p ** k * (1 - p) ** (n - k);
}

/** P(at least k successes in n trials of probability p). */
export function probAtLeast(k, n, p) {
  if (k <= 0) return 1;
  if (k > n) return 0;
  let s = 0;
  for (let i = k; i <= n; i++) s += probExactly(i, n, p);
  return Math.min(1, s);
}

/**
 * Odds of `bid` ({quantity, face}) for the seat whose `view` (a bidding-family view) this is.
 * `rules` is the room's public `rules` object ({faces, wild}). In a palifico round wilds
 * don't count (the view says so). Returns {atLeast, exactly, known, unseen, p}.
 */
export function bidOdds(view, rules, bid) {
  const wild = view.palifico ? null : rules.wild;
  const faces = rules.faces;
  const p = wild === null || wild === undefined || bid.face === wild ? 1 / faces : 2 / faces;
  const shown = (view.shown || []).flat();
  const seen = [...(view.my_dice || []), ...shown, ...(view.stash || [])];
  const counts = (d) => d === bid.face || (wild !== null && wild !== undefined && d === wild);
  const known = seen.filter(counts).length;
  const total = (view.dice_counts || []).reduce((a, b) => a + b, 0);
  const hiddenOthers = Math.max(0, total - shown.length - (view.my_dice || []).length);
  const unseen = hiddenOthers + (view.stash === null ? view.stash_size || 0 : 0);
  const need = bid.quantity - known;
  return {
    atLeast: probAtLeast(need, unseen, p),
    exactly: probExactly(need, unseen, p),
    known,
    unseen,
    p,
  };
}

/** 0.4273 -> "43%", with "<1%" and ">99%" at the ends. */
export function percent(x) {
  if (x >= 1) return "100%";
  if (x <= 0) return "0%";
  if (x < 0.005) return "<1%";
  if (x > 0.995) return ">99%";
  return `${Math.round(x * 100)}%`;
}
