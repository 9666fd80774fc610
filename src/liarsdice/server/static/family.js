// THE rule families of the browser client, behind one interface (`Family`), as the server's
// `liarsdice.families`: the registry finds a room's family and the shared modules (the
// table, the move picker, the reveal, the log, the tips, the replay, the lobby) call its
// methods; they never ask which family they have (tests/test_architecture.py checks it).
// Each family is one module named after it (family-bidding.js, family-poker.js, and the
// modules beside them whose names carry the family's: its move controls, its words).

import { BIDDING } from "./family-bidding.js";
import { POKER } from "./family-poker.js";

/** @typedef {import("./types.js").Family} Family */
/**
 * What names a family: its name, a room's state (`{room}`), a room or an analysis (`family`).
 * @typedef {string | {room?: {family: string} | null, family?: string}} FamilyHolder
 */

/**
 * Every family, in the order the lobby and the rating pages list them.
 * @type {Family[]}
 */
export const FAMILIES = [BIDDING, POKER];

/**
 * The family of this name ("bidding", "poker"), or null.
 * @param {unknown} name
 * @returns {Family | null}
 */
export function familyNamed(name) {
  return FAMILIES.find((f) => f.name === name) || null;
}

/**
 * The family of a room's state (`{room}`), a room (`room.family`), an analysis (`family`),
 * a family's name, or the family itself; an error for one the page does not know (a bug:
 * every frame names its room's family).
 * @param {Family | FamilyHolder} x
 * @returns {Family}
 */
export function familyOf(x) {
  if (FAMILIES.includes(/** @type {Family} */ (x))) return /** @type {Family} */ (x);
  const y = /** @type {FamilyHolder} */ (x);
  const name = typeof y === "string" ? y : y && y.room ? y.room.family : y && y.family;
  const found = familyNamed(name);
  if (!found) throw new Error(`unknown rule family ${JSON.stringify(name)}`);
  return found;
}

/** The family of a preset ("perudo", "poker-dice"; each family lists its presets' titles);
 * an error naming the preset when no family has it.
 * @param {string} preset
 * @returns {Family}
 */
export function familyOfPreset(preset) {
  const found = FAMILIES.find((f) => Object.hasOwn(f.titles, preset));
  if (!found) throw new Error(`unknown rules ${JSON.stringify(preset)}`);
  return found;
}
