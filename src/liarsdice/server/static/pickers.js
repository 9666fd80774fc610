// What the families' move controls share (family-*-moves.js): the legal moves grouped by
// the control that offers them, and dice picked by their faces.

/** @typedef {import("./types.js").Face} Face */
/** @typedef {import("./types.js").LegalEntry} LegalEntry */

/**
 * Sorted multiset key of faces: [5, 1, 5] -> "1,5,5" (`rank`: the faces' order).
 * @param {Face[]} faces
 * @param {(face: string) => number} [rank]
 */
export function multiset(faces, rank = Number) {
  const sorted = [...faces].map(String).sort((a, b) => rank(a) - rank(b));
  return sorted.join(",");
}

/**
 * The move of the picked dice in ``byKey`` (by the multiset of their faces).
 * @param {Map<string, LegalEntry>} byKey
 * @param {{face: Face, picked: boolean}[]} dice
 * @param {(face: string) => number} [rank]
 */
export function pickedMove(byKey, dice, rank = Number) {
  return byKey.get(multiset(dice.filter((d) => d.picked).map((d) => d.face), rank)) || null;
}

/**
 * Group moves by `category(move)`, keeping their order.
 * @template M
 * @param {M[]} moves
 * @param {(move: M) => string} category
 */
export function groupMoves(moves, category) {
  /** @type {Map<string, M[]>} */
  const groups = new Map();
  for (const move of moves) {
    const cat = category(move);
    if (!groups.has(cat)) groups.set(cat, []);
    groups.get(cat).push(move);
  }
  return groups;
}
