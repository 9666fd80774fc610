// The games on offer: a title per preset (each family's module lists its presets' titles: the
// lobby's picker, the room's header and every page that names a game), and the rules in
// words, which are the server's: each family writes them once, from the rules themselves,
// and the terminal prints the same sentences (`GET /api/rules`, docs/PROTOCOL.md). A room's
// changed options change their sentences (`GET /api/rules/{preset}?options=...`), so the
// rules never say both the preset's default and the change.

import { getJSON } from "./api.js";
import { FAMILIES } from "./family.js";
import { currentLanguage } from "./i18n.js";

/** @typedef {import("./types.js").Preset} Preset */

/** The rules in words of every preset, in the page's language, read once before any module
 * uses them (as i18n.js reads its catalogue); a server that does not answer leaves the titles
 * only. */
/** @returns {Promise<Record<string, {description: string, rules: string[]}>>} */
async function everyPreset() {
  try {
    const all = /** @type {{presets?: Record<string, {description: string, rules: string[]}>}} */ (await getJSON(`/api/rules?lang=${encodeURIComponent(currentLanguage())}`));
    return all.presets || {};
  } catch {
    return {};
  }
}

const TEXTS = await everyPreset();

/**
 * The preset's title for people ("Perudo": its family's), falling back to the name.
 * @param {string} name
 */
export function presetTitle(name) {
  const family = FAMILIES.find((f) => Object.hasOwn(f.titles, name));
  return family ? family.titles[name] : String(name || "");
}

/**
 * One line on what the game is like: the server's description.
 * @param {Preset} preset
 */
export function presetSummary(preset) {
  const text = TEXTS[preset && preset.name];
  return text ? text.description : String((preset && preset.description) || "");
}

/**
 * The preset's rules, one sentence each, in the page's language.
 * @param {Preset} preset
 */
export function presetRules(preset) {
  const text = TEXTS[preset && preset.name];
  return text ? text.rules.map(String) : [];
}

/** The rules of a room: its preset with the room's changed options, one sentence each, in the
 * page's language (an ApiError when the server cannot say them).
 * @param {string} name
 * @param {Record<string, unknown> | null} options
 * @returns {Promise<string[]>}
 */
export async function roomRules(name, options) {
  const query = new URLSearchParams({ lang: currentLanguage(), options: JSON.stringify(options || {}) });
  const text = /** @type {{rules: string[]}} */ (await getJSON(`/api/rules/${encodeURIComponent(name)}?${query}`));
  return text.rules.map(String);
}
