"""The replay of a finished game on the table: opened at a step from a link
(/r/{room}/replay/{game}?step=N), stepped with the buttons and the keys, played at 4x; the
table shows the bid to beat and every seat's dice of that step, the moves in words stay under
it; no serious axe-core violations. Screenshot: tests/artifacts/replay.png. And the rating
pages per family: the leaderboard's family switch, a player's tag, page and games (each with
its preset and a link to its replay). Screenshot: tests/artifacts/player.png."""

from __future__ import annotations

from typing import Any

import e2e_util as e2e


def _steps(record: dict[str, Any]) -> list[tuple[int, int]]:
    return [(r, m) for r, rd in enumerate(record["rounds"]) for m in range(-1, len(rd["moves"]))]


def _table(page: Any) -> Any:
    return page.evaluate(
        """() => ({
        pos: document.getElementById('replay-pos').textContent,
        bid: (document.querySelector('#replay-centre [data-bid]') || {dataset: {}}).dataset.bid
          || null,
        seats: [...document.querySelectorAll('#replay-seats > li')].map(
          (li) => [...li.querySelectorAll('svg.die')].map((d) => Number(d.dataset.face))),
        step: document.getElementById('replay-page').dataset.step,
        playing: document.getElementById('replay-page').dataset.playing,
        url: location.pathname + location.search,
      })"""
    )


def _expected(record: dict[str, Any], r: int, m: int) -> tuple[str | None, list[list[int]]]:
    """The bid in the centre and every seat's dice at step (r, m); at the game's last step
    the centre shows the winner instead of the bid."""
    rd = record["rounds"][r]
    bids = [mv["bid"] for mv in rd["moves"][: m + 1] if "bid" in mv]
    dice = [rd["dice"].get(name, []) for name in record["players"]]
    over = r == len(record["rounds"]) - 1 and m == len(rd["moves"]) - 1
    return (bids[-1] if bids and not over else None), dice


def test_replay_on_the_table(browser: Any, server: str) -> None:
    rid = e2e.finished_game(server)
    record = e2e.get_json(f"{server}/api/rooms/{rid}/games/1/record?format=json")
    steps = _steps(record)
    # a step with a bid on the table, a few moves in (the link's step counts from 1)
    k = next(
        i
        for i, (r, m) in enumerate(steps)
        if m >= 0 and "bid" in record["rounds"][r]["moves"][m] and i + 2 < len(steps)
    )
    page = e2e.new_page(browser, viewport={"width": 1100, "height": 900})
    page.goto(f"{server}/r/{rid}/replay/1?step={k + 1}")
    page.wait_for_selector("#replay-seats > li")
    got = _table(page)
    assert got["pos"] == f"Step {k + 1} of {len(steps)}"
    assert (got["bid"], got["seats"]) == _expected(record, *steps[k])
    assert page.locator("#replay-list li.current").count() == 1  # the list in words, too

    # step forward with the button, back with the arrow key; Home and End jump
    page.click("#replay-next")
    assert _table(page)["pos"] == f"Step {k + 2} of {len(steps)}"
    assert _table(page)["url"] == f"/r/{rid}/replay/1?step={k + 2}"  # the address follows
    assert (_table(page)["bid"], _table(page)["seats"]) == _expected(record, *steps[k + 1])
    page.keyboard.press("ArrowLeft")
    assert _table(page)["pos"] == f"Step {k + 1} of {len(steps)}"
    assert page.get_attribute("#replay-link", "href") == f"/r/{rid}/replay/1?step={k + 1}"
    page.keyboard.press("Home")
    assert _table(page)["step"] == "1" and _table(page)["bid"] is None

    # play at 4x: the steps advance by themselves; Space pauses
    page.select_option("#replay-speed", "4")
    page.focus("#replay-h")
    page.keyboard.press(" ")
    assert _table(page)["playing"] == "true"
    page.wait_for_function("() => Number(document.getElementById('replay-page').dataset.step) >= 4")
    page.keyboard.press(" ")
    paused = _table(page)
    assert paused["playing"] == "false"
    n = int(paused["step"])
    assert (paused["bid"], paused["seats"]) == _expected(record, *steps[n - 1])
    page.wait_for_timeout(500)
    assert _table(page)["step"] == str(n)  # paused: it stays

    # the last step: the winner in the centre and in words
    page.keyboard.press("End")
    assert page.locator("#winner-centre").is_visible()
    assert "wins the game" in page.inner_text("#replay-caption")
    page.keyboard.press("Home")
    for _ in range(k):
        page.keyboard.press("ArrowRight")
    assert _table(page)["pos"] == f"Step {k + 1} of {len(steps)}"
    assert e2e.axe_serious(page) == []
    e2e.screenshot(page, "replay.png")
    e2e.no_page_errors(page)


def test_rating_pages_per_family(browser: Any, server: str) -> None:
    me = e2e.post_json(f"{server}/api/players", {"name": "ann"})
    e2e.finished_game(server, player_token=me["token"])
    poker = e2e.finished_game(server, "poker-dice", {"lives": 1}, player_token=me["token"])
    found = e2e.get_json(f"{server}/api/players/{me['player']}")
    facts = found["families"]
    page = e2e.new_page(browser, viewport={"width": 1000, "height": 800})
    row = f"#leaderboard-table tr[data-player='{me['player']}']"
    page.goto(f"{server}/leaderboard")
    page.wait_for_selector(row)
    assert page.inner_text(f"{row} th") == f"ann #{found['tag']}"
    assert str(facts["bidding"]["rating"]) in page.inner_text(row)
    page.check("#leaderboard-family input[value=poker]")
    page.wait_for_function("() => location.search === '?family=poker'")
    page.wait_for_selector(f"{row} >> text={facts['poker']['rating']}")
    assert page.locator("#leaderboard-table tbody tr").count() == 1  # ann; the bot apart
    assert page.locator("#leaderboard-bots-table tbody tr").count() == 1
    page.click(f"{row} a")
    page.wait_for_selector("#player-games-table")
    assert page.inner_text("#player-h") == "ann"
    assert page.inner_text("#player-rating") == str(facts["poker"]["rating"])  # the link's
    games = page.locator("#player-games-table .game-link")
    assert games.all_inner_texts() == ["Poker dice, game 1"]  # each family: its own games
    page.check("#player-family input[value=bidding]")
    assert page.inner_text("#player-rating") == str(facts["bidding"]["rating"])
    assert games.all_inner_texts() == ["Classic, game 1"]
    assert e2e.axe_serious(page) == []
    e2e.screenshot(page, "player.png")
    page.check("#player-family input[value=poker]")
    page.click(f"#player-games-table tr[data-room='{poker}'] .game-link")
    page.wait_for_selector("#replay-seats > li")
    assert page.inner_text("#replay-pos").startswith("Step 1 of ")
    assert page.locator("#replay-hand svg.die").count() == 5  # the poker cup's five dice
    e2e.no_page_errors(page)
