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
from liarsdice.notation.grammar import plural
from liarsdice.server.fair import SCHEME, SERVER_SEED_RE, DiceStream, commitment

TEXT_RECORD = (
    "{path} is a text record, which does not carry the provably fair seeds; verify the game's "
    "JSON record instead (GET /api/rooms/ROOM/games/N/record?format=json)"
)


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
            f"{path} is neither a JSON record nor a text record of a game: {err}"
        ) from None
    raise RecordError(TEXT_RECORD.format(path=path))


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
        raise RecordError("the record has no 'fair' seeds to verify")
    game = final.game
    # Chance events of the replay, by round (the round the state is in when they happen):
    # (outcomes, the one applied, whose dice: a seat, or None for the stash or a roll-off).
    by_round: dict[int, list[tuple[int, int, int | None]]] = {}
    state = game.new_initial_state()
    waiting: list[tuple[int, int, int, int | None]] = []  # rolls whose owner moves next
    for player, action in final.history():
        if player == CHANCE:
            outcomes = [a for a, _ in state.chance_outcomes()]
            owner = _dealt_to(state)
            entry = (state.round, len(outcomes), outcomes.index(action), owner)
            if owner == _NEXT:
                waiting.append(entry)
            else:
                by_round.setdefault(state.round, []).append(entry[1:])
        state = state.apply_event(player, action)
        if player == CHANCE and waiting and state.current_player != CHANCE:
            for at, k, index, _ in waiting:  # the player who rolled them moves next
                by_round.setdefault(at, []).append((k, index, state.current_player))
            waiting.clear()
    for at, k, index, _ in waiting:
        by_round.setdefault(at, []).append((k, index, None))
    problems: list[str] = []
    for r, rnd in enumerate(rounds):
        info = rnd.get("fair")
        where = f"round {r + 1}"
        if info is None:  # every round of a server game is dealt from the fair stream
            problems.append(f"{where}: no 'fair' seeds, so its dice are not proven")
            continue
        seed = info.get("server_seed")
        seeds = info.get("client_seeds")
        if info.get("scheme", SCHEME) != SCHEME:
            problems.append(f"{where}: unknown scheme {info.get('scheme')!r}")
            continue
        if not isinstance(seed, str) or not SERVER_SEED_RE.match(seed):
            problems.append(f"{where}: no revealed server seed")
            continue
        if commitment(seed) != info.get("commitment"):
            problems.append(f"{where}: the server seed does not match the commitment")
            continue
        if not isinstance(seeds, dict) or list(seeds) != players:
            problems.append(f"{where}: client_seeds must map every player, in seat order")
            continue
        stream = DiceStream(seed, [str(seeds[p]) for p in players])
        if info.get("opener_draw"):
            drawn = stream.draw(len(players))
            if r != 0 or players[drawn] != rnd.get("opener"):
                problems.append(f"{where}: the opener draw gives {players[drawn]}")
        for i, (k, index, owner) in enumerate(by_round.get(r, [])):
            got = stream.draw(k)
            if got != index:
                whose = "the stash" if owner is None else f"{players[owner]}'s dice"
                problems.append(
                    f"{where}, {whose} (roll {i + 1} of the round) do not match the committed "
                    f"seeds: they give outcome {got + 1} of {k}, the record has {index + 1}"
                )
                break
    return problems


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


@click.command("verify", cls=Command)
@click.argument("record_file", metavar="RECORD", type=click.Path(dir_okay=False))
def verify(record_file: str) -> None:
    """Check a server game record's provably fair dice (docs/SERVER.md).

    RECORD is the game's JSON record; a text record is recognised and refused, as it does not
    carry the seeds.
    """
    try:
        data = read_record(record_file)
        problems = verify_record(data)
    except (OSError, UnicodeDecodeError, LiarsDiceError) as err:
        reason = str(err)
        if isinstance(err, (OSError, UnicodeDecodeError)):
            why = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
            reason = f"can't read {record_file}: {why}"
        raise fail(reason) from None
    rounds = len(data.rounds)
    if problems:
        for p in problems:
            click.echo(f"FAILED: {p}.", err=True)
        click.echo(
            f"FAILED: {record_file}: {len(problems)} of {plural(rounds, 'round')} not proven fair.",
            err=True,
        )
        raise SystemExit(1)
    click.echo(
        f"OK: {record_file}: every die of {plural(rounds, 'round')} re-derived "
        "from the revealed seeds, which match their commitments."
    )
