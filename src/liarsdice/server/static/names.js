// One display name per computer player's level, wherever a level is named: the table's seat
// plates, the leaderboard, a player's page and the lobby's choice of a bot (which adds what
// the level does: "Casual (counts the odds)"). A bot's seat keeps its own name ("prob-bot-1");
// its level reads the same everywhere.

import { _ } from "./i18n.js";

/** @type {Record<string, [string, string]>} */
const BOT_LEVELS = {
  random: [_("Beginner"), _("plays at random")],
  prob: [_("Casual"), _("counts the odds")],
  bayes: [_("Sharp"), _("reads your bids")],
  expert: [_("Expert"), _("thinks ahead")],
};

/**
 * The display name of a bot level ("prob" -> "Casual"); an unknown level as it is.
 * @param {string} level
 */
export function botLevelName(level) {
  return BOT_LEVELS[level] ? BOT_LEVELS[level][0] : String(level);
}

/**
 * The level's name with what it does, for choosing one: "Casual (counts the odds)".
 * @param {string} level
 */
export function botLevelChoice(level) {
  const known = BOT_LEVELS[level];
  return known ? _("{level} ({does})", { level: known[0], does: known[1] }) : String(level);
}
