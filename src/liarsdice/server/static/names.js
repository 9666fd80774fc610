// One display name per computer player's level, wherever a level is named: the lobby's choice
// of a bot, the table's seat plates, the leaderboard and a player's page. A bot's seat keeps
// its own name ("prob-bot-1"); its level reads the same everywhere.

import { _ } from "./i18n.js";

const BOT_LEVELS = {
  random: _("Beginner (plays at random)"),
  prob: _("Casual (counts the odds)"),
  bayes: _("Sharp (reads your bids)"),
  expert: _("Expert (thinks ahead)"),
};

/** The display name of a bot level ("prob" -> "Casual (counts the odds)"); an unknown level as it is. */
export function botLevelName(level) {
  return BOT_LEVELS[level] || String(level);
}
