"""The leaderboard: a rated round-robin of bot specs with intervals and CPU per move,
saved as data that merges run by run, as Markdown and on the rules pages."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from wasserspiele.bots.leaderboard import (Leaderboard, Pairing, levels_section, markdown, packaged_data, rate,
                                           read_boards, round_robin, save_boards)
from wasserspiele.bots.levels import CPU_BUDGET
from wasserspiele.core.errors import BadOption
from wasserspiele.cli.main import main


def test_round_robin_ranks_the_levels_in_their_known_order_of_strength():
    # the fast levels on a tiny budget: medium (the heuristic) above easy (random play)
    board = round_robin("wasserloch", {"players": 2, "rounds": 1}, ["easy", "medium", "random"],
                        games=40, seed=2)
    ranks = [r.spec for r in board.ratings]
    assert ranks[0] == "medium" and ranks.index("medium") < ranks.index("easy")
    assert {(p.first, p.second) for p in board.pairings} == {("easy", "medium"), ("easy", "random"),
                                                              ("medium", "random")}
    step = board.pairing("medium", "easy")
    assert step.significant and step.share.value > 0.5 and step.games == 40
    for r in board.ratings:
        assert r.low < r.mu < r.high
    for spec in ("easy", "medium", "random"):
        assert board.cpu[spec].moves > 0
    page = markdown([board])
    assert "## wasserloch (players=2, rounds=1)" in page and "| 1 | medium |" in page


def test_with_more_than_two_seats_both_line_ups_play_on_the_same_deals():
    # three seats: one bot against two of the other, then the other way round, so an
    # equal bot is not held to winning one game in three
    board = round_robin("wasserloch", {"players": 3, "rounds": 1}, ["random", "heuristic"], games=12, seed=1)
    [p] = board.pairings
    assert p.games == 12 and set(p.outcomes) <= set("10=")
    assert p.share.value < 0.5 and p.significant
    # both line-ups timed: the heuristic sat in one seat of six games and two of the others
    assert board.cpu["heuristic"].moves > board.cpu["random"].moves / 2


def test_search_costs_more_cpu_per_move_than_random_play():
    board = round_robin("wasserloch", {"players": 2, "rounds": 1}, ["random", "ismcts:iterations=40"],
                        games=2, seed=0)
    assert board.cpu["ismcts:iterations=40"].per_move > 10 * board.cpu["random"].per_move > 0


def test_saved_boards_merge_run_by_run_and_re_rate(tmp_path):
    path = tmp_path / "board.json"
    opts = {"players": 2, "rounds": 1}
    first = round_robin("wasserloch", opts, ["easy", "medium"], games=6, seed=0, command="run one")
    second = round_robin("wasserloch", opts, ["medium", "random"], games=6, seed=0, command="run two")
    save_boards([first], path)
    boards = save_boards([second], path)
    board = read_boards(path)["wasserloch"]
    assert boards["wasserloch"] == board
    assert {(p.first, p.second) for p in board.pairings} == {("easy", "medium"), ("medium", "random")}
    assert board.commands == ["run one", "run two"] and {r.spec for r in board.ratings} == {"easy", "medium",
                                                                                           "random"}
    assert board.cpu["medium"].moves == first.cpu["medium"].moves + second.cpu["medium"].moves
    # a re-run of a pair on the same deals (the same seed) replaces it
    again = round_robin("wasserloch", opts, ["easy", "medium"], games=4, seed=0, command="run three")
    board = save_boards([again], path)["wasserloch"]
    assert board.pairing("easy", "medium") == again.pairings[0] and len(board.pairings) == 2
    assert Leaderboard.from_json(board.to_json()) == board


def test_a_pair_played_again_on_new_deals_gains_the_games_and_a_replay_replaces_them(tmp_path):
    path = tmp_path / "board.json"
    opts = {"players": 2, "rounds": 1}
    first = round_robin("wasserloch", opts, ["random", "medium"], games=4, seed=0, command="seed 0")
    save_boards([first], path)
    # the other way round and on another seed: new deals, so the games add up
    more = round_robin("wasserloch", opts, ["medium", "random"], games=2, seed=1, command="seed 1")
    board = save_boards([more], path)["wasserloch"]
    p, q, r = first.pairings[0], more.pairings[0].flipped(), board.pairings[0]
    assert (r.first, r.second) == ("random", "medium") and len(board.pairings) == 1
    assert r.outcomes == p.outcomes + q.outcomes and r.games == 6 and r.seeds == p.seeds + q.seeds
    assert r.first_cpu == p.first_cpu + q.first_cpu and board.commands == ["seed 0", "seed 1"]
    assert read_boards(path)["wasserloch"] == board
    # a replay of either run's deals replaces the pair, and so does a pair whose deals are unknown
    replay = round_robin("wasserloch", opts, ["random", "medium"], games=2, seed=0)
    assert save_boards([replay], path)["wasserloch"].pairings == replay.pairings
    unknown = Pairing("random", "medium", "10", seeds=())
    assert p.joined(unknown) == unknown and unknown.joined(p) == p
    with pytest.raises(ValueError, match="not the pairing"):
        p.joined(Pairing("random", "hard", "1", seeds=(7,)))


def test_broken_leaderboard_data_is_refused_with_the_reason(tmp_path):
    path = tmp_path / "board.json"
    path.write_text(json.dumps({"version": 1, "boards": {"watten": {"game": "watten", "ratings": [],
                                "pairings": [{"first": "a", "second": "b", "outcomes": "1x0",
                                              "first_cpu": {}, "second_cpu": {}}]}}}))
    with pytest.raises(BadOption, match="only 1, 0 and ="):
        read_boards(path)
    path.write_text(json.dumps({"version": 1, "boards": {"watten": {"game": "watten", "ratings": [],
                                "pairings": [{"first": "a", "second": "b", "outcomes": "10", "seeds": ["x"],
                                              "first_cpu": {}, "second_cpu": {}}]}}}))
    with pytest.raises(BadOption, match="seeds of a–b must be a list of whole numbers"):
        read_boards(path)
    path.write_text("[]")
    with pytest.raises(BadOption, match="not leaderboard data"):
        read_boards(path)


def test_ratings_follow_the_games_whatever_their_order_and_stay_finite_for_a_clean_sweep():
    # a ladder: medium swept easy, hard beat medium 8 of 12 and played no one else
    ladder = [Pairing("easy", "medium", "0" * 30), Pairing("medium", "hard", "001" * 4),
              Pairing("learned", "medium", "0" * 28 + "11")]
    table = rate(ladder)
    assert [r.spec for r in table] == ["hard", "medium", "learned", "easy"]
    again = rate(list(reversed(ladder)))
    assert [r.spec for r in again] == [r.spec for r in table]
    assert [x for r in again for x in (r.mu, r.sigma)] == pytest.approx([x for r in table for x in (r.mu, r.sigma)])
    assert abs(sum(r.mu for r in table) / len(table) - 1500) < 1e-6
    for r in table:
        assert 0 < r.sigma < 1000 and r.low < r.mu < r.high
    # more games of the same result narrow the interval
    wider = {r.spec: r.sigma for r in rate([Pairing("a", "b", "10" + "1" * 4)])}
    narrower = {r.spec: r.sigma for r in rate([Pairing("a", "b", ("10" + "1" * 4) * 5)])}
    assert narrower["a"] < wider["a"]


def test_a_pairing_seen_from_the_other_side_flips_its_outcomes():
    p = Pairing("easy", "medium", "00=1")
    assert p.flipped().outcomes == "11=0" and p.flipped().wins == 2.5 and p.wins == 1.5


def test_the_levels_section_reads_the_saved_board(tmp_path):
    path = tmp_path / "board.json"
    save_boards([round_robin("wasserloch", {"players": 2, "rounds": 1}, ["easy", "medium"], games=6, seed=0)], path)
    en = levels_section("wasserloch", "en", path)
    de = levels_section("wasserloch", "de", path)
    assert en.startswith("## What the levels mean") and "| medium |" in en and "of 6 games against easy" in en
    assert de.startswith("## Was die Spielstärken bedeuten") and "| mittel |" in de and "gegen leicht" in de
    assert levels_section("watten", "en", path) == ""


def test_the_levels_section_says_how_each_game_s_own_bot_for_a_level_plays():
    # Watten's medium is the heuristic with slips and its hard the heuristic itself
    # (its manifest's level_bots): each row describes the bot that plays it there
    def about(game, lang):
        rows = [line.split(" | ") for line in levels_section(game, lang).splitlines() if line.startswith("| ")]
        return {row[0].lstrip("| "): row[1] for row in rows[1:]}
    watten, wasserloch = about("watten", "en"), about("wasserloch", "en")
    assert watten["medium"] == "follows rules of thumb, but plays 25\u00a0% of its moves at random"
    assert watten["hard"] == wasserloch["medium"] == "follows rules of thumb, like a steady casual player"
    assert wasserloch["hard"] == "looks ahead through a short search over possible deals"
    assert about("watten", "de")["mittel"] == "folgt Faustregeln, spielt aber 25\u00a0% ihrer Züge zufällig"


def test_every_game_has_a_saved_board_of_the_levels_easy_to_hard_at_least():
    boards = read_boards(packaged_data())
    for game in ("wasserloch", "seven_waters", "watten", "wildwasser"):
        board = boards[game]
        assert {"easy", "medium", "hard"} <= {r.spec for r in board.ratings}, game
        # what played the board, to replay it: the leaderboard itself, or bench/pairing.py
        # merging chunk by chunk (a long pairing that decides a step)
        assert board.commands and all(c.startswith(("wasserspiele leaderboard", "python bench/pairing.py "))
                                      for c in board.commands)
        assert all("--data" in c for c in board.commands if c.startswith("python bench/pairing.py"))


def test_bench_pairing_merges_each_chunk_into_the_board_and_records_its_command(tmp_path):
    """bench/pairing.py --data: every chunk's games (new deal seeds) add up on the board."""
    root = Path(__file__).resolve().parents[2]
    data = tmp_path / "board.json"
    save_boards([round_robin("wasserloch", {}, ["easy", "medium"], games=2, seed=0)], data)
    before = read_boards(data)["wasserloch"].pairing("easy", "medium")
    out = subprocess.run([sys.executable, str(root / "bench" / "pairing.py"), "wasserloch", "easy", "medium",
                          "2", "3", "7", str(tmp_path / "total.json"), "--data", str(data)],
                         capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(root / "src")})
    assert out.returncode == 0, out.stderr
    board = read_boards(data)["wasserloch"]
    after = board.pairing("easy", "medium")
    total = json.loads((tmp_path / "total.json").read_text())
    assert after.games == before.games + len(total["outcomes"]) and len(total["outcomes"]) >= 6
    assert after.seeds == before.seeds + (7, 8)
    assert board.commands[-1].startswith("python bench/pairing.py wasserloch easy medium 2 3 7 ")


def test_every_level_stays_within_its_cpu_budget_on_the_leaderboard():
    # measured during the leaderboard's games on a shared machine, whose busy cores make
    # CPU time run up to about a fifth above an idle core's
    for game, board in read_boards(packaged_data()).items():
        for level, budget in CPU_BUDGET.items():
            if level not in board.cpu:
                continue
            cpu = board.cpu[level]
            assert cpu.moves > 0 and cpu.per_move <= 1.2 * budget, (game, level, cpu.per_move)


def test_leaderboard_command_writes_the_page_and_the_data(tmp_path):
    out, data = tmp_path / "board.md", tmp_path / "board.json"
    result = CliRunner().invoke(main, ["leaderboard", "wasserloch", "--bots", "random,heuristic",
                                       "--games", "3", "--jobs", "1", "--data", str(data), "--out", str(out)])
    assert result.exit_code == 0, result.output
    page = out.read_text()
    assert "| heuristic |" in page and "| random |" in page
    assert "`wasserspiele leaderboard wasserloch --bots random,heuristic --games 3 --seed 0`" in page
    assert read_boards(data)["wasserloch"].pairing("random", "heuristic").games == 6  # both line-ups of 3 seats
    out.unlink()
    again = CliRunner().invoke(main, ["leaderboard", "--page-only", "--data", str(data), "--out", str(out)])
    assert again.exit_code == 0, again.output
    assert out.read_text() == page
    bad = CliRunner().invoke(main, ["leaderboard", "wasserloch", "--bots", "random,robot", "--games", "2"])
    assert bad.exit_code == 2 and "unknown bot 'robot'" in bad.output


@pytest.mark.parametrize("words, says", [
    (["nope"], "unknown game 'nope'"),  # was a traceback
    (["wasserloch", "--bots", "medium"], "ranks two bots or more, got 1 (medium)"),  # was an empty table
    (["wasserloch", "--bots", ","], "ranks two bots or more, got 0 (none)"),
])
def test_the_leaderboard_command_refuses_what_it_cannot_rank(words, says):
    result = CliRunner().invoke(main, ["leaderboard", *words, "--games", "1", "--jobs", "1"])
    assert result.exit_code == 2, result.output
    assert says in result.output and "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_round_robin_of_one_spec_is_refused():
    with pytest.raises(BadOption, match="two bots or more"):
        round_robin("wasserloch", {"players": 2, "rounds": 1}, ["medium"], games=1)


def test_a_pairing_plays_its_games_in_whole_groups_and_says_how_many():
    """Both line-ups in every seat (team) on one deal: Wasserloch's three seats play 6 a
    group, two-team games 2; `pairing_games` is what `play_pairing` plays, which the
    command's progress line announces (it used to say "× 7 games" and play 12)."""
    from wasserspiele import load
    from wasserspiele.bots.leaderboard import pairing_games, pairing_group, play_pairing
    from wasserspiele.bots.specs import parse_bot_spec
    assert [pairing_games(load("wasserloch"), n) for n in (1, 2, 6, 7, 12)] == [6, 6, 6, 12, 12]
    assert pairing_games(load("watten"), 3) == pairing_games(load("seven_waters"), 3) == 4
    assert pairing_group(load("wasserloch", players=2)) == 2
    for options, asked in (({"rounds": 1}, 7), ({"players": 2, "rounds": 1}, 3)):
        played = play_pairing("wasserloch", options, parse_bot_spec("random"), parse_bot_spec("easy"), asked, 1)
        assert played.games == pairing_games(load("wasserloch", **options), asked)


def test_a_run_whose_games_were_all_replayed_leaves_the_commands_under_the_game(tmp_path):
    # docs/leaderboard.md lists under each game the runs that play the board shown: a run all
    # of whose pairs a later run replayed on their deals (the same --seed replaces the whole
    # pair) holds none of its games, and was still listed (Wildwasser's page named three
    # 48-game hard–expert runs and a bench run after a replay had replaced their games)
    data = tmp_path / "board.json"

    def run(bots, seed):
        result = CliRunner().invoke(main, ["leaderboard", "wasserloch", "--bots", bots, "--games", "2",
                                           "--seed", str(seed), "--jobs", "1", "--data", str(data)])
        assert result.exit_code == 0, result.output
        return f"wasserspiele leaderboard wasserloch --bots {bots} --games 2 --seed {seed}"

    first = run("easy,medium,random", 0)  # easy–medium, medium–random, easy–random
    more = run("easy,medium", 1)            # easy–medium gains new deals: both runs hold its games
    assert read_boards(data)["wasserloch"].commands == [first, more]
    replay = run("easy,medium", 0)          # its seed-0 deals replayed: the pair is replay's games alone
    board = read_boards(data)["wasserloch"]
    assert board.pairing("easy", "medium").games == 6 and len(board.pairings) == 3
    assert board.commands == [first, replay]  # first still holds easy–random and medium–random
    page = markdown([board])
    assert f"Played by `{first}`; `{replay}`." in page and "--seed 1" not in page
    er = run("easy,random", 0)
    assert read_boards(data)["wasserloch"].commands == [first, replay, er]
    mr = run("medium,random", 0)            # first's last pair replayed: it holds no game of the board
    assert read_boards(data)["wasserloch"].commands == [replay, er, mr]


def test_a_run_repeated_after_another_seed_lists_only_the_runs_whose_games_are_shown(tmp_path):
    """Seed 2, then seed 3 (new deals: both held), then seed 2 again: the repeat replaces the
    pair's games with its own, so the page lists it alone.  The repeated command was moved to the
    end before the runs were replayed, the replay then matched no seeds, and both were listed
    beside 12 games."""
    data = tmp_path / "board.json"

    def run(seed):
        result = CliRunner().invoke(main, ["leaderboard", "wasserloch", "--bots", "easy,medium", "--games", "2",
                                           "--seed", str(seed), "--jobs", "1", "--data", str(data)])
        assert result.exit_code == 0, result.output
        return f"wasserspiele leaderboard wasserloch --bots easy,medium --games 2 --seed {seed}"

    two, three = run(2), run(3)
    assert read_boards(data)["wasserloch"].commands == [two, three]
    assert run(2) == two
    board = read_boards(data)["wasserloch"]
    assert board.commands == [two] and board.pairing("easy", "medium").games == 6
    assert "--seed 3" not in markdown([board])
    # boards saved before runs were left out (src/wasserspiele/bots/leaderboard.json named Seven
    # Waters' hard–expert runs of 6 and 40 games beside the 64-game run that replaced them) list,
    # read back, the runs whose games they hold
    doc = json.loads(data.read_text())
    doc["boards"]["wasserloch"]["commands"] = [two.replace("--games 2", "--games 1"), three, two]
    data.write_text(json.dumps(doc))
    assert read_boards(data)["wasserloch"].commands == [two]


def test_bench_runs_leave_the_list_as_leaderboard_runs_do_and_unknown_commands_keep_it_whole():
    from wasserspiele.bots.leaderboard import live_commands
    from wasserspiele.core.chance import derive_seed
    s0 = derive_seed(0, "pairing", "easy", "medium")
    lb0 = "wasserspiele leaderboard wasserloch --bots easy,medium --games 2 --seed 0"
    lb0_again = "wasserspiele leaderboard wasserloch --bots easy,medium --games 8 --seed 0"
    bench = "python bench/pairing.py wasserloch easy medium 2 3 7 OUT.json --data board.json"
    pooled = [Pairing("easy", "medium", "1" * 18, seeds=(s0, 7, 8))]
    assert live_commands([lb0, bench], pooled) == [lb0, bench]
    # bench/pairing.py's chunks (seeds 7, 8) replaced by a leaderboard replay of seed 0's deals, and a
    # leaderboard run replaced by a bench run on a seed the pair held (7, either way round)
    assert live_commands([lb0, bench, lb0_again], [Pairing("easy", "medium", "1" * 6, seeds=(s0,))]) == [lb0_again]
    assert live_commands([lb0, bench, "python bench/pairing.py wasserloch medium easy 1 3 7 OUT.json --data b.json"],
                         [Pairing("easy", "medium", "1" * 3, seeds=(7,))]) == [
        "python bench/pairing.py wasserloch medium easy 1 3 7 OUT.json --data b.json"]
    # a text of another form (what it played is not known), or seeds the replay does not end with
    # (data merged by other means): nothing is left out
    assert live_commands(["run one", lb0_again], [Pairing("easy", "medium", "1" * 6, seeds=(s0,))]) == [
        "run one", lb0_again]
    assert live_commands([bench, lb0_again], [Pairing("easy", "medium", "1" * 6, seeds=(s0, 99))]) == [
        bench, lb0_again]
    assert live_commands([lb0, lb0_again], [Pairing("easy", "medium", "1" * 6, seeds=())]) == [lb0, lb0_again]
