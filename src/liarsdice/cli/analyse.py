"""``liarsdice analyse FILE``: the post-game analysis of a game record (docs/ANALYSIS.md).

FILE is a JSON or text record (``docs/RECORD.md``), ``-`` for stdin. Every move is judged from
its player's own view: the odds of the bid faced, the expert's move, the win chance given away.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import click

from liarsdice.analysis import THRESHOLDS
from liarsdice.analysis import analyse as analyse_record
from liarsdice.cli.command import Command, fail
from liarsdice.cli.replay import read_file, where
from liarsdice.core.errors import RecordError, RulesError
from liarsdice.families import read_record_text
from liarsdice.i18n import N_, _, ngettext, pgettext

__all__ = ["analyse", "analysis_text"]

# What the loss measures, as the analysis says it in English (``Measure.loss`` of analysis/):
# said in the language in use where it is one of these, else as it is.
LOSS_MEASURES = (
    N_("the expert's estimate of the win chance the move gave away"),
    N_("the expert's estimate of the points the move gave away (room scoring)"),
    N_(
        "the expert's estimate of the win chance the answer gave away (its chance of losing a "
        "life, times a life's worth)"
    ),
)
_SIGNS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def _mark_word(name: str) -> str:
    """A mark's name in the language in use."""
    words = {
        "inaccuracy": pgettext("mark", "inaccuracy"),
        "mistake": pgettext("mark", "mistake"),
        "blunder": pgettext("mark", "blunder"),
    }
    return words[name]


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def _cell(text: str | None, width: int) -> str:
    text = "-" if text is None else text
    if len(text) > width:
        text = text[: width - 1] + "…"
    return text.ljust(width)


def _mark(name: str | None) -> str:
    if name is None:
        return ""
    return f"{_SIGNS[name]} {_mark_word(name)}"


def _legend(analysis: Mapping[str, Any]) -> list[str]:
    measure = str(analysis["loss_measure"])
    if measure in LOSS_MEASURES:
        measure = _(measure)
    marks = ", ".join(
        _("{mark} (>= {threshold}%)").format(mark=_mark(name), threshold=f"{100 * t:.0f}")
        for name, t in THRESHOLDS[::-1]
    )
    return [
        _("Analysis ({rules}): {players}").format(
            rules=analysis["rules"], players=", ".join(analysis["seats"])
        ),
        _(
            "p(known): the chance the bid faced was true from what the player could see; "
            "p(all): with every die known (=: exactly right, for an exact call)"
        ),
        _("loss: {measure}; marks: {marks}").format(measure=measure, marks=marks),
        "",
    ]


def _head() -> str:
    player, move, faced = (
        pgettext("column", "player"),
        pgettext("column", "move"),
        pgettext("column", "faced"),
    )
    expert, loss, mark = (
        pgettext("column", "expert"),
        pgettext("column", "loss"),
        pgettext("column", "mark"),
    )
    return (
        f"{'#':>3}  {_cell(player, 10)} {_cell(move, 26)} {_cell(faced, 16)} "
        f"{'p(known)':>8} {'p(all)':>6}  {_cell(expert, 18)} {loss:>6}  {mark}"
    )


def _move_line(n: int, m: Mapping[str, Any]) -> str:
    loss = "-" if m["loss"] is None else f"{100 * m['loss']:.1f}%"
    mark = _mark(m["mark"])
    if m.get("computer"):  # played for an away player: not held against them
        by_computer = _("(played by the computer)")
        mark = f"{mark} {by_computer}".strip()
    expert = f"= {m['expert']}" if m["agrees"] else m["expert"]
    known, actual = _pct(m["p_known"]), _pct(m["p_actual"])
    if m["played"] == "exact":  # a spot-on call bets on the exact count
        known, actual = f"={_pct(m['p_exact_known'])}", f"={_pct(m['p_exact_actual'])}"
    return (
        f"{n:>3}  {_cell(m['player'], 10)} {_cell(m['played'], 26)} "
        f"{_cell(m['faced'], 16)} {known:>8} {actual:>6}  "
        f"{_cell(expert, 18)} {loss:>6}  {mark}".rstrip()
    )


def _player_line(name: str, s: Mapping[str, Any]) -> str:
    average = "-" if s["average_loss"] is None else f"{100 * s['average_loss']:.1f}%"
    line = _(
        "{name}: {decisions}, {judged}, {agreed}; {inaccuracies}, {mistakes}, {blunders}; "
        "average loss {average}"
    ).format(
        name=name,
        decisions=ngettext("{n} decision", "{n} decisions", s["decisions"]).format(
            n=s["decisions"]
        ),
        # Translators: how many of a player's decisions were judged ("3 judged").
        judged=ngettext("{n} judged", "{n} judged", s["judged"]).format(n=s["judged"]),
        # Translators: how many of a player's moves were the expert's own ("3 as the expert").
        agreed=ngettext("{n} as the expert", "{n} as the expert", s["agreed"]).format(
            n=s["agreed"]
        ),
        inaccuracies=ngettext("{n} inaccuracy", "{n} inaccuracies", s["inaccuracies"]).format(
            n=s["inaccuracies"]
        ),
        mistakes=ngettext("{n} mistake", "{n} mistakes", s["mistakes"]).format(n=s["mistakes"]),
        blunders=ngettext("{n} blunder", "{n} blunders", s["blunders"]).format(n=s["blunders"]),
        average=average,
    )
    computer = s.get("computer") or 0
    if computer:
        line += " " + ngettext(
            "({n} move played by the computer, not counted)",
            "({n} moves played by the computer, not counted)",
            computer,
        ).format(n=computer)
    return f"  {line}"


def analysis_text(analysis: Mapping[str, Any]) -> str:
    """The analysis (``docs/ANALYSIS.md``'s JSON) as text for a player, in the language in use:
    one line per move, then each player's summary, every count agreeing with its noun."""
    lines = _legend(analysis)
    current = -1
    for n, m in enumerate(analysis["moves"], start=1):
        if m["round"] != current:
            current = m["round"]
            if n > 1:
                lines.append("")
            lines += [_("Round {round}").format(round=current + 1), _head()]
        lines.append(_move_line(n, m))
    lines += ["", _("Players")]
    lines += [_player_line(name, s) for name, s in analysis["players"].items()]
    if analysis["finished"]:
        lines.append(_("Winner: {name}").format(name=analysis["winner"]))
    else:
        lines.append(_("The game is not finished."))
    return "\n".join(lines)


@click.command(
    "analyse",
    cls=Command,
    help=N_(
        "Analyse the game in the record FILE (JSON or text): for every move, the chance that "
        "the bid faced was true (as the player could know it, and with every die known), the "
        "expert bot's move, the win chance given away and a mark on mistakes; then a summary "
        "per player.\n\n"
        "Exits with status 1 when the record is unreadable or not legal. --json prints "
        '{"format": "liarsdice-analysis", "version": 1, "moves": [...], "players": {...}, ...} '
        "(docs/ANALYSIS.md)."
    ),
)
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option(
    "--json", "as_json", is_flag=True, help=N_("Print the analysis as one JSON object (versioned).")
)
def analyse(file: str, as_json: bool) -> None:
    try:
        record = read_record_text(read_file(file))
        result = analyse_record(record)
    except (RecordError, RulesError) as err:
        at = (None, None) if not isinstance(err, RecordError) else (err.round, err.move)
        raise fail(where(*at, str(err))) from None
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False))
    else:
        click.echo(analysis_text(result))
