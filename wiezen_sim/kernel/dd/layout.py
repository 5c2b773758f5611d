"""The search's state arrays by name: counter slots, scratch rows, table columns, sizes.

Module-level integer constants are compile-time constants for numba, so an index by
name compiles to the same code as the bare number.

The state arrays are allocated by the caller, passed down and never reallocated. Inside
the search they travel by address, one int64 each (``bits.address``), and each function
that indexes one views it again with :func:`scratch_view` or :func:`table_view`: the
compiler then knows the shapes (an index is a constant offset, not a product of strides
loaded from the arguments), a recursive call passes one word per array instead of the
array's 9-11-word descriptor, and the views have no owner, so numba counts no references
to them. Session 52, the same trick nodes: list1000's first 200 tables 9 % less CPU, the
advisor's suite 7-10 % (results/benchmarks/README.md). The arrays:

    hands:   int64[4] — ``hands[seat]`` = mask of the cards still held. The entry points
             copy it into the scratch array (``scratch[STATE, HANDS, :4]``), where the
             search modifies it and restores it before returning.
    trick:   int64[4] — the cards played to the current trick, in order from its leader.
    tt:      int64[n_rows, TT_COLUMNS] — the transposition table, ``n_rows`` a power of two
             (columns below; how entries are keyed and chained: :mod:`.table`).
    scratch: int64[SCRATCH_ROWS, SCRATCH_PLIES, SCRATCH_MOVES] — per search ply the
             candidate cards and their ordering scores, what a node leaves for its parent
             and its siblings, and in the ``STATE`` row the hands and the counters.
             ``scratch[STATE, RACE_WORDS, :4]`` is the race game's position (:mod:`.race`);
             the rows from ``SUIT_GAME`` on are the one-suit game's cache (:mod:`.suit_game`).
    stats:   int64[N_STATS] — the counters (``STAT_*``), a view of
             ``scratch[STATE, STATS, :N_STATS]`` (the solver reads them through it).
             When ``stats[STAT_NODE_LIMIT] > 0`` and the trick nodes pass it,
             ``stats[STAT_LIMIT_EXCEEDED]`` is set to 1 and every search frame returns at
             once, storing nothing (the result is then meaningless; every later trick start
             also passes the limit and returns). A probing node (``search.PROBE_TL``)
             lowers the limit for a while to its budget, and clears the flag when only
             its budget was passed; so does an exact question's first test
             (``entry.EXACT_PRECHECK_BUDGET``) and a lone declarer's count test before it
             asks the race game (``entry.RACE_AFTER``).
    race:    int64[n_rows, RACE_COLUMNS] — the race game's table (:mod:`.race`), ``n_rows`` a
             power of two; an empty one (no rows) turns the race game off.
"""

from __future__ import annotations

from numba import carray, njit

from wiezen_sim.kernel.bits import int64_pointer

# ---------------------------------------------------------------- questions

OBJ_MAX = 0  # dd_solve: the most tricks the side can force
OBJ_MIN = 1  # dd_solve: the fewest tricks the side can hold itself to
OBJ_EXACT = 2  # dd_solve: can the side force exactly k tricks (1/0)

BIG = 99  # "no upper limit" for a search's hi

# ---------------------------------------------------------------- scratch rows

SUIT_GAME = 4  # scratch[SUIT_GAME:] (flat): the one-suit game's cache (.suit_game, suit_game_view)
SUIT_GAME_ROWS = 32
SCRATCH_ROWS = SUIT_GAME + SUIT_GAME_ROWS
SCRATCH_PLIES = 64  # plies of one search (52 cards) and room to spare
SCRATCH_MOVES = 32  # candidate cards of one node (13 at most; the race game 19) and the counters (N_STATS)
CANDIDATES = 0  # scratch[CANDIDATES, ply, :n]: one card per sequence of equivalent legal cards, best first
SCORES = 1  # scratch[SCORES, ply, :n]: the lowest card of each one's sequence, then its ordering score
PER_PLY = 2  # scratch[PER_PLY, ply, column]: what the node at a ply leaves behind (columns below)
DECISIVE = 0  # the mask of the cards that decided the node's result (partition search, :mod:`.table`)
KILLER_LEAD = 1  # the last lead that refuted a sibling at this trick depth, + 1 (0: none; reset per question)
CASH_HANDS = 4  # CASH_HANDS + seat: the team's hands while a line of quick tricks is played out (_cash_line)
STATE = 3  # scratch[STATE, HANDS, :4] = the hands, scratch[STATE, STATS, :N_STATS] = the counters
HANDS = 0
STATS = 1
RACE_WORDS = 2  # scratch[STATE, RACE_WORDS, :4]: the race game's position (.race.race_words)

SUIT_GAME_ENTRIES = SUIT_GAME_ROWS * SCRATCH_PLIES * SCRATCH_MOVES  # a power of two (65,536 words, 512 kB)

# ---------------------------------------------------------------- counters (stats[...])

STAT_NODES = 0  # search nodes visited
STAT_TT_HITS = 1  # table lookups whose bound decided the question
STAT_TT_STORES = 2  # results stored in the table
STAT_QUICK_TRICKS = 3  # nodes decided by the quick tricks of the side on lead or of the second hand
STAT_TOP_TRUMPS = 4  # nodes decided by the trump bounds
STAT_SEARCHES = 5  # zero-window searches started by the entry points
STAT_TT_PROBES = 6  # table entries compared during lookups
STAT_TRICK_NODES = 7  # nodes at a trick's start (the count DDS reports as nodes)
STAT_TT_ENTRIES = 8  # table entries in use
STAT_TT_PRUNES = 9  # times a full table was pruned (_tt_prune)
STAT_NODE_LIMIT = 10  # the trick-node count at which the search gives up (0: none)
STAT_LIMIT_EXCEEDED = 11  # 1 once the search gave up
STAT_HEAD_DOUBLINGS = 12  # doublings of the table's chain heads since it was emptied (_head_mask)
# settings, not counters (0: the default; for tests, which probe small endings):
STAT_PROBE_TL = 13  # probing from this many tricks left on (search.PROBE_TL, MISERE_PROBE_TL)
STAT_PROBE_BUDGET = 14  # the first budget of a probe (search.PROBE_BUDGET, MISERE_PROBE_BUDGET)
STAT_EXACT_BUDGET = 15  # an exact question's "at least k" test (entry.EXACT_PRECHECK_BUDGET)
STAT_RACE_NODES = 16  # trick starts of the race game searched (a lone declarer's floor, .race)
STAT_RACE_LIMIT = 17  # the race game's count at which its search gives up (set per test, .race.race_test)
STAT_RACE_FLOORS = 18  # a lone declarer's count tests answered by the race game (entry.dd_value)
STAT_RACE_AFTER = 19  # a setting: the race game is asked past this many trick nodes of a test (entry.RACE_AFTER)
N_STATS = 20

# ---------------------------------------------------------------- table columns

TT_COLUMNS = 8  # int64 words per row (an entry uses the 7 below, a row of chain heads all 8)
# an entry's row: its key ...
TT_LENGTHS = 0  # cards of each suit in each hand, 4 bits each (_lengths_key)
TT_QUESTION = 1  # leader, question tag, pattern code and top-card owners
TT_SEGMENT = 2  # the relevant cards, packed among the remaining ones
TT_OWNERS_LOW = 3  # the low bit of each relevant card's owner (seats 1 and 3), packed
TT_OWNERS_HIGH = 4  # the high bit of each relevant card's owner (seats 2 and 3), packed
# ... and its chain and value
TT_NEXT = 5  # the next entry of its hash chain + 1 (0: end of chain)
TT_BOUNDS = 6  # lower bound | upper bound << 8 | (best lead + 1) << 16 (fields named in .table)
# the chain heads and the code sets: in the last rows of the table (at most 1 / HEAD_SHARE
# of them), from the last row backwards: first the chain heads, HEADS_PER_ROW to a row (a
# word each: the first entry of its chain + 1, 0: empty), then the code sets of the ordinary
# questions, CODE_SETS_PER_ROW to a row (CODE_WORDS words each: bit c = an entry with pattern
# code c is stored for a code-free question hashing there), a quarter as many as the heads,
# then those of the misère family's and exact questions (finer codes, .table), REFINED_SET_ROWS
# rows each (REFINED_CODE_WORDS words), a sixteenth as many as the heads
HEAD_SHARE = 8
HEADS_PER_ROW = 8
CODE_WORDS = 4
CODE_SETS_PER_ROW = 2
REFINED_CODE_WORDS = 10
REFINED_SET_ROWS = 2
MIN_HEADS = 1 << 16  # chain heads of an empty table (grown with the entries, _tt_grow)

# ---------------------------------------------------------------- the race game's table (.race)

RACE_WAYS = 4  # rows per hash value (a row is replaced when all are taken)
RACE_WORD = 0  # RACE_WORD + seat: the seat's word of a race position (trumps packed to relative ranks)
RACE_HASH = 4  # the position's hash
RACE_VALUE = 5  # the question's tag (leader, declarer, tricks needed) | the answer << 8
RACE_COLUMNS = 6


@njit(cache=True, inline="always")
def scratch_view(scratch_at):
    """The scratch array (int64[SCRATCH_ROWS, SCRATCH_PLIES, SCRATCH_MOVES]) at address ``scratch_at``
    (``bits.address``), its shape known to the compiler; valid while the caller's array is alive."""
    return carray(int64_pointer(scratch_at), (SCRATCH_ROWS, SCRATCH_PLIES, SCRATCH_MOVES))


@njit(cache=True, inline="always")
def suit_game_view(scratch_at):
    """The one-suit game's cache (int64[SUIT_GAME_ENTRIES], :mod:`.suit_game`): the scratch array's rows from
    ``SUIT_GAME`` on, flat, of the scratch array at address ``scratch_at``."""
    return carray(int64_pointer(scratch_at + 8 * SUIT_GAME * SCRATCH_PLIES * SCRATCH_MOVES), (SUIT_GAME_ENTRIES,))


@njit(cache=True, inline="always")
def check_shapes(table, columns, scratch):
    """Raise ValueError unless ``table`` has ``columns`` columns and ``scratch`` is shaped as above: the search
    views both by address with these shapes (:func:`scratch_view`, :func:`table_view`) and would read outside
    an array shaped otherwise."""
    if table.shape[1] != columns or scratch.shape != (SCRATCH_ROWS, SCRATCH_PLIES, SCRATCH_MOVES):
        raise ValueError("the table or the scratch array is not shaped as kernel.dd.layout says")


@njit(cache=True, inline="always")
def table_view(table_at, rows, columns):
    """The table (int64[rows, columns]: the transposition table, the race game's) at address ``table_at``
    (``bits.address``), ``columns`` a constant known to the compiler; valid while the caller's array is alive."""
    return carray(int64_pointer(table_at), (rows, columns))
