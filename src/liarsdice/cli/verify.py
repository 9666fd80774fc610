"""``liarsdice verify RECORD``: re-derive every roll of a record from its revealed seeds.

A record written by the server (``docs/RECORD.md``, "Provably fair dice") carries a ``fair``
object per round: the commitment, the revealed server seed and the client seeds. For each
round this checks ``sha256(server_seed) == commitment`` and that the HMAC-SHA256 stream
(:mod:`liarsdice.server.fair`) yields exactly the chance outcomes the record's replay applies:
the first opener (when drawn), then every die in engine order.

RECORD may be in either record format; only the JSON record carries the ``fair`` seeds (the
text record leaves them out, ``docs/RECORD.md``), so a text record is read, checked, and then
refused with a message that says to verify the JSON record instead.
"""

from __future__ import annotations

from typing import Any

import click

from liarsdice.cli.command import Command, fail
from liarsdice.cli.reasons import os_reason
from liarsdice.core.api import StateAPI
from liarsdice.core.bidding.game import CHANCE
from liarsdice.core.bidding.state import Phase as BiddingPhase
from liarsdice.core.errors import LiarsDiceError, RecordError
from liarsdice.families import (
    AnyRecord,
    LoadedRecord,
    RulesAPI,
    load_record,
    read_record_text,
    replay_record,
)
from liarsdice.i18n import N_, _, ngettext
from liarsdice.server.fair import SCHEME, SERVER_SEED_RE, DiceStream, commitment


def read_record(path: str) -> LoadedRecord[RulesAPI]:
    """The JSON record in the file ``path``, checked; a :class:`RecordError` for a text record
    (it has no seeds to verify) or a file that is neither format."""
    with open(path, encoding="utf-8") as handle:
        text = handle.read()
    if text.lstrip().startswith("{"):
        return load_record(text)
    try:
        read_record_text(text)
    except RecordError as err:
        raise RecordError(
            _("{path} is neither a JSON record nor a text record of a game: {error}").format(
                path=path, error=err
            )
        ) from None
    raise RecordError(
        _(
            "{path} is a text record, which does not carry the provably fair seeds; verify "
            "the game's JSON record instead (GET /api/rooms/ROOM/games/N/record?format=json)"
        ).format(path=path)
    )


def verify_record(record: AnyRecord) -> list[str]:
    """The problems found (an empty list: every round is proven: its ``fair`` seeds match
    their commitments and re-derive every roll). A round without ``fair`` seeds is a problem.

    Raises :class:`RecordError` when the record itself does not load or replay, or when no
    round carries a ``fair`` key.
    """
    rec = load_record(record)  # a loaded record (read_record's) is taken as it is
    final = replay_record(rec)
    players = list(rec.players)
    rounds = rec.rounds
    if not any("fair" in r for r in rounds):
        raise RecordError(_("the record has no 'fair' seeds to verify"))
    by_round = _rolls_by_round(final)
    problems: list[str] = []
    for r, rnd in enumerate(rounds):
        problems += _round_problems(r, rnd, players, by_round.get(r, []))
    return problems


_Roll = tuple[int, int, int | None]
"""A chance event of a replay: (its number of outcomes, the one applied, whose dice: a seat,
or None for the stash or a roll-off)."""


def _rolls_by_round(final: StateAPI) -> dict[int, list[_Roll]]:
    """The chance events of the replay that led to ``final``, by round (the round the state is
    in when they happen)."""
    by_round: dict[int, list[_Roll]] = {}
    state = final.game.new_initial_state()
    waiting: list[tuple[int, int, int, int | None]] = []  # rolls whose owner moves next
    for player, action in final.history():
        if player == CHANCE:
            outcomes = [a for a, _chance in state.chance_outcomes()]
            owner = _dealt_to(state)
            entry = (state.round, len(outcomes), outcomes.index(action), owner)
            if owner == _NEXT:
                waiting.append(entry)
            else:
                by_round.setdefault(state.round, []).append(entry[1:])
        state = state.apply_event(player, action)
        if player == CHANCE and waiting and state.current_player != CHANCE:
            for at, k, index, _owner in waiting:  # the player who rolled them moves next
                by_round.setdefault(at, []).append((k, index, state.current_player))
            waiting.clear()
    for at, k, index, _owner in waiting:
        by_round.setdefault(at, []).append((k, index, None))
    return by_round


def _round_problems(
    r: int, rnd: dict[str, Any], players: list[str], rolls: list[_Roll]
) -> list[str]:
    """What is wrong with round ``r``'s ``fair`` seeds, or with the ``rolls`` they re-derive
    (the first roll they do not give; an empty list: the round is proven)."""
    info = rnd.get("fair")
    if info is None:  # every round of a server game is dealt from the fair stream
        return [_round(r, _("no 'fair' seeds, so its dice are not proven"))]
    why = _seed_problem(info, players)
    if why is not None:
        return [_round(r, why)]
    problems: list[str] = []
    stream = DiceStream(info["server_seed"], [str(info["client_seeds"][p]) for p in players])
    if info.get("opener_draw"):
        drawn = stream.draw(len(players))
        if r != 0 or players[drawn] != rnd.get("opener"):
            said = _("the opener draw gives {name}").format(name=players[drawn])
            problems.append(_round(r, said))
    for i, (k, index, owner) in enumerate(rolls):
        got = stream.draw(k)
        if got != index:
            problems.append(_mismatch(r, i, k, (got, index), owner, players))
            break
    return problems


def _round(r: int, problem: str) -> str:
    return _("round {round}: {problem}").format(round=r + 1, problem=problem)


def _seed_problem(info: dict[str, Any], players: list[str]) -> str | None:
    """Why a round's ``fair`` object proves nothing (None: its seeds are in order)."""
    seed = info.get("server_seed")
    seeds = info.get("client_seeds")
    if info.get("scheme", SCHEME) != SCHEME:
        return _("unknown scheme {scheme}").format(scheme=repr(info.get("scheme")))
    if not isinstance(seed, str) or not SERVER_SEED_RE.match(seed):
        return _("no revealed server seed")
    if commitment(seed) != info.get("commitment"):
        return _("the server seed does not match the commitment")
    if not isinstance(seeds, dict) or list(seeds) != players:
        return _("client_seeds must map every player, in seat order")
    return None


def _mismatch(
    r: int, i: int, k: int, outcomes: tuple[int, int], owner: int | None, players: list[str]
) -> str:
    """Roll ``i`` of round ``r`` that the committed seeds do not give: ``outcomes`` is (what
    they give, what the record has), of ``k`` possible."""
    if owner is None:
        whose = _("the stash")
    else:
        whose = _("{name}'s dice").format(name=players[owner])
    got, recorded = outcomes
    return _(
        "round {round}, {whose} (roll {roll} of the round) do not match the committed seeds: "
        "they give outcome {got} of {outcomes}, the record has {recorded}"
    ).format(round=r + 1, whose=whose, roll=i + 1, got=got + 1, outcomes=k, recorded=recorded + 1)


_NEXT = -2  # a roll whose owner is the player who moves after it (re-rolls, a shaken cup)


def _dealt_to(state: Any) -> int | None:
    """Whose die the chance event due at ``state`` rolls: a seat, None (the stash, a
    roll-off for the opener), or :data:`_NEXT` (the player who moves next: a re-roll after a
    show, a bought die, poker dice shaken under the cup)."""
    if state.game.family != "bidding":
        return _NEXT
    phase = state.phase
    if phase is BiddingPhase.ROLL:  # the round's deal: seat by seat, the stash last
        index = len(state.pending)
        for seat, count in enumerate(state.table.dice):
            if index < count:
                return seat
            index -= count
        return None
    if phase in (BiddingPhase.REROLL, BiddingPhase.BUY_ROLL):
        roller: int = state.pending[0]
        return roller
    return None


@click.command(
    "verify",
    cls=Command,
    help=N_(
        "Check a server game record's provably fair dice (docs/SERVER.md).\n\n"
        "RECORD is the game's JSON record; a text record is recognised and refused, as it does "
        "not carry the seeds."
    ),
)
@click.argument("record_file", metavar="RECORD", type=click.Path(dir_okay=False))
def verify(record_file: str) -> None:
    try:
        data = read_record(record_file)
        problems = verify_record(data)
    except (OSError, UnicodeDecodeError, LiarsDiceError) as err:
        reason = str(err)
        if isinstance(err, (OSError, UnicodeDecodeError)):
            why = os_reason(err)
            reason = _("can't read {path}: {reason}").format(path=record_file, reason=why)
        raise fail(reason) from None
    rounds = len(data.rounds)
    if problems:
        for p in problems:
            click.echo(_("FAILED: {problem}.").format(problem=p), err=True)
        said = ngettext(
            "FAILED: {path}: {failed} of {n} round not proven fair.",
            "FAILED: {path}: {failed} of {n} rounds not proven fair.",
            rounds,
        )
        click.echo(said.format(path=record_file, failed=len(problems), n=rounds), err=True)
        raise SystemExit(1)
    said = ngettext(
        "OK: {path}: every die of {n} round re-derived from the revealed seeds, which match "
        "their commitments.",
        "OK: {path}: every die of {n} rounds re-derived from the revealed seeds, which match "
        "their commitments.",
        rounds,
    )
    click.echo(said.format(path=record_file, n=rounds))
