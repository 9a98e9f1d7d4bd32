"""What a leaf costs: the champion's and the references' evaluation against resetting the scratch arrays.

Plays one game of four ``greedy`` snakes (50×50, 1,200 steps, run seed 3), then times on
four of its positions :func:`snakelab.games.arena.evaluation.evaluate_w` with the
champion's weights and with the references', and the reset of the distance and free-time
arrays alone. Run it on an idle core: ``python research/arena/leaf.py``.
"""

import copy
import time

import numba
import numpy as np

from snakelab import make, make_agent
from snakelab.core.game import Budget
from snakelab.games.arena import evaluation, sim
from snakelab.harness import match_seeds
from snakelab.harness.match import play


@numba.njit(nogil=True)
def reset_only(st, lay, work, reps):
    size = lay[sim.L_SIZE]
    occ0 = lay[sim.L_OCC]
    dist = work[0:size]
    freet = work[2 * size : 3 * size]
    s = 0
    for _ in range(reps):
        for c in range(size):
            dist[c] = -1
            freet[c] = (1 << 20) if st[occ0 + c] != 0 else 0
        evaluation.body_free_times(st, lay, freet)
        s += freet[reps % size]
    return s


@numba.njit(nogil=True)
def eval_many(st, lay, nbr, me, work, wts, timid, reps):
    s = 0.0
    for _ in range(reps):
        s += evaluation.evaluate_w(st, lay, nbr, me, 3, work, wts, timid)
    return s


def main() -> None:
    game = make("arena(duration=60)")
    champion = make_agent("arena.champion")
    agents = [make_agent("arena.greedy") for _ in range(4)]
    states = []
    first = agents[0].act

    def act(obs, budget):
        states.append(copy.deepcopy(obs))
        return first(obs, budget)

    agents[0].act = act
    play(game, agents, match_seeds(3, 1)[0], budget=Budget(nodes=50))
    timid = np.zeros(64, np.int32)
    for idx in (100, 300, 600, 900):
        s = states[idx]
        lay = sim.layout(s, cap=300)
        st = sim.encode(s, lay, [0] * len(s.bodies))
        nbr = sim.grid_nbr(s)
        wts = champion.weights.copy()
        wts[evaluation.W_ROOT_LEN] = len(s.bodies[0])
        work = np.empty(4 * lay[sim.L_SIZE] + 1, np.int32)
        figures = []
        for fn, args in (
            (eval_many, (st, lay, nbr, 0, work, wts, timid)),
            (eval_many, (st, lay, nbr, 0, work, evaluation.WEIGHTS, timid)),
            (reset_only, (st, lay, work)),
        ):
            fn(*args, 10)  # compile and warm up
            t = time.perf_counter()
            fn(*args, 20_000)
            figures.append((time.perf_counter() - t) / 20_000 * 1e6)
        lens = [len(b) for b in s.bodies]
        print(
            f"step {idx}, lengths {lens}: champion {figures[0]:.2f} µs, references {figures[1]:.2f} µs, "
            f"reset {figures[2]:.2f} µs"
        )


if __name__ == "__main__":
    main()
