"""The rules' one cache helper: bounded, keyed so no answer leaks between objects or threads, and
never state (the rules decide the same with every cache emptied)."""
from __future__ import annotations

import threading

from kifu.domain.core import memo
from kifu.domain.core.envelope import state_digest
from kifu.domain.core.ruleset import find_ruleset
from kifu.tools.bench_work import play, preset_pairs


def test_a_memo_never_holds_more_than_its_bound() -> None:
    m: memo.Memo[int, int] = memo.Memo("test.bounded", bound=3)
    for key in range(10):
        assert m.put(key, key * key) == key * key
        assert len(m) <= 3
    m[99] = 1                       # item assignment is bounded the same way
    assert len(m) <= 3 and m.get(99) == 1


def test_by_identity_answers_per_object_not_per_equal_object() -> None:
    built: list[tuple[int, ...]] = []

    def build(names: tuple[int, ...]) -> int:
        built.append(names)
        return len(built)

    per = memo.ByIdentity("test.identity", build, bound=2)
    a, b = tuple([1, 2]), tuple([1, 2])            # equal, not the same object
    assert per(a) == 1 and per(a) == 1 and per(b) == 2 and per(a) == 1
    per(tuple([3]))                                 # a third object: the bound empties the table
    assert len(per) <= 2


def test_per_thread_objects_are_each_threads_own() -> None:
    per = memo.PerThread("test.thread", list)
    per.get().append("main")
    seen: list[list[str]] = []
    worker = threading.Thread(target=lambda: seen.append(per.get()))
    worker.start()
    worker.join()
    assert seen == [[]] and per.get() == ["main"]


def test_the_rules_decide_the_same_with_every_cache_emptied() -> None:
    rules = find_ruleset("worlfard")
    decks = preset_pairs(rules)[1]
    warm, _ = play(rules, 3, decks, players=("greedy", "random"))
    memo.clear_all()
    assert all(size == 0 for size in memo.sizes().values())
    cold, _ = play(rules, 3, decks, players=("greedy", "random"))
    assert [e.event for e in cold.envelopes] == [e.event for e in warm.envelopes]
    assert state_digest(cold.state) == state_digest(warm.state)
