"""The arena step as a pipeline of named stages (as Battlesnake's rules are built).

A step is :data:`STAGES`, in order: ``respawn``, ``move``, ``collide``, ``eat``,
``zombies``, ``age_apples`` (the rules of each are in
:mod:`~snakelab.games.arena.rules`). Every stage is a function ``stage(state, step)``
that changes the state and appends to ``step.events``; what one stage hands to the next
(the new heads, who died) travels in the :class:`Step`. The first stage runs at the end
of the previous :meth:`~snakelab.games.arena.rules.State.apply` (and as part of
``new_state`` for step 1), so the agents see its result; the others run inside
``apply``. A variant is the same tuple with one stage replaced
(:func:`replace_stage`), passed to :class:`~snakelab.games.arena.rules.Game`.
"""

from __future__ import annotations

from snakelab.core.game import Event
from snakelab.games.arena.actions import CRASH, INVALID, OBSTACLE, TIMEOUT, TURN, ZOMBIE_ORDER
from snakelab.games.arena.spawn import spawn_apple, spawn_snake
from snakelab.games.arena.state import Stage, State, Step

# The stages are part of the rules: they use the state's private lookup tables (``_nbr``,
# ``_xs``, ``_ys``) as its own methods do.


def kill(state: State, i: int) -> None:
    """Snake ``i`` dies: its body leaves the board, it respawns at the start of the step after next."""
    occ = state.occ
    for c in state.bodies[i]:
        occ[c] = 0
    state.bodies[i].clear()
    state.alive[i] = False
    state.growth[i] = 0
    state.deaths[i] += 1
    state.respawn_at[i] = state.steps + 2


def respawn(state: State, step: Step) -> None:
    """Snakes whose timer ended respawn; eaten, destroyed or expired apples respawn."""
    events = step.events
    nxt = state.steps + 1
    for i in range(len(state.bodies)):
        if state.running[i] and not state.alive[i] and state.respawn_at[i] <= nxt:
            spawn_snake(state, i, events)
    limit = state.config.apple_limit
    for k, c in enumerate(state.apples):
        if c < 0:
            spawn_apple(state, k)
        elif state.apple_age[k] >= limit:
            events.append(Event("apple_expired", None, {"cell": state.xy(c)}))
            state.apples[k] = -1
            spawn_apple(state, k)


def move(state: State, step: Step) -> None:
    """Remove crashed snakes, count faults, turn and advance: each snake's new head in ``step.moved``."""
    actions, events, moved = step.actions, step.events, step.moved
    n = len(state.bodies)
    nbr, heading, alive = state._nbr, state.heading, state.alive
    for i in range(n):
        if not state.running[i]:
            continue
        a = actions[i]
        if a == CRASH:
            state.running[i] = False
            state.crashes[i] += 1
            events.append(Event("crash", i))
            if alive[i]:
                occ = state.occ
                for c in state.bodies[i]:
                    occ[c] = 0
                state.bodies[i].clear()
                alive[i] = False
                state.growth[i] = 0
            continue
        if not alive[i]:
            continue
        if a == TIMEOUT:
            state.timeouts[i] += 1
            events.append(Event("timeout", i))
        elif a == INVALID:
            state.invalid[i] += 1
            events.append(Event("invalid", i))
        d = TURN[heading[i]][a]
        heading[i] = d
        moved[i] = nbr[4 * state.bodies[i][-1] + d]


def collide(state: State, step: Step) -> None:
    """Decide every death against the bodies after moving, then apply them together (``step.dead``)."""
    moved, events = step.moved, step.events
    n = len(moved)
    occ, bodies, growth = state.occ, state.bodies, state.growth
    own_tail_kills = state.config.own_tail_kills
    dead = step.dead
    causes: list[tuple[int, str, int | None, int]] = []
    heads: dict[int, int] = {}
    for c in moved:
        if c >= 0:
            heads[c] = heads.get(c, 0) + 1
    for i in range(n):
        c = moved[i]
        if c == -2:
            continue
        if c < 0:
            causes.append((i, "wall", None, c))
            continue
        v = occ[c]
        if v == OBSTACLE:
            causes.append((i, "obstacle", None, c))
        elif v < 0:
            causes.append((i, "zombie", None, c))
        elif v > 0:
            j = v - 1
            body = bodies[j]
            vacated = c == body[0] and growth[j] == 0 and moved[j] != -2 and not (own_tail_kills and j == i)
            if not vacated:
                causes.append((i, "self" if j == i else "body", None if j == i else j, c))
            elif heads[c] > 1:
                causes.append((i, "head_on", None, c))
        elif heads[c] > 1:
            causes.append((i, "head_on", None, c))
    apples = state.apples
    for i, cause, by, c in causes:
        dead[i] = True
        if by is not None:
            state.kills[by] += 1
        if cause == "head_on" and c in apples:
            apples[apples.index(c)] = -1
        events.append(Event("death", i, {"cause": cause, "by": by, "cell": state.xy(c) if c >= 0 else None}))
    for i, _cause, _by, _c in causes:
        kill(state, i)
    # Survivors: tails first (a head may enter a vacated tail), then heads.
    for i in range(n):
        if moved[i] >= 0 and not dead[i]:
            if growth[i]:
                growth[i] -= 1
            else:
                occ[bodies[i].popleft()] = 0
    for i in range(n):
        c = moved[i]
        if c >= 0 and not dead[i]:
            bodies[i].append(c)
            occ[c] = i + 1


def eat(state: State, step: Step) -> None:
    """A surviving head on an apple eats it: ``apple_growth`` pending growth."""
    moved, dead, events = step.moved, step.dead, step.events
    apples = state.apples
    for i, c in enumerate(moved):
        if c >= 0 and not dead[i] and c in apples:
            apples[apples.index(c)] = -1
            state.growth[i] += state.config.apple_growth
            events.append(Event("eat", i, {"cell": state.xy(c)}))


def zombies(state: State, step: Step) -> None:
    """Every ``zombie_speed`` steps the zombies move, one after another (see the rules)."""
    if state.steps % state.config.zombie_speed:
        return
    events = step.events
    occ, nbr, xs, ys = state.occ, state._nbr, state._xs, state._ys
    bodies, alive = state.bodies, state.alive
    for j, z in enumerate(state.zombies):
        hxs = [xs[b[-1]] for i, b in enumerate(bodies) if alive[i]]
        hys = [ys[b[-1]] for i, b in enumerate(bodies) if alive[i]]
        nheads = len(hxs)
        base = 4 * z[-1]
        # The first legal cell in the stably sorted order is the legal cell with the
        # smallest distance, ties going to the earlier of LEFT, RIGHT, UP, DOWN.
        c = -1
        best = 1 << 31
        for d in ZOMBIE_ORDER:
            n = nbr[base + d]
            if n < 0:
                continue
            v = occ[n]
            if v != 0 and not (v > 0 and bodies[v - 1][-1] == n):
                continue
            dist = 0
            if nheads:
                dist = 1 << 30
                nx, ny = xs[n], ys[n]
                for k in range(nheads):
                    t = abs(nx - hxs[k]) + abs(ny - hys[k])
                    if t < dist:  # noqa: PLR1730 - cheaper than a min() call in the hot loop
                        dist = t
            if dist < best:
                best, c = dist, n
        if c < 0:
            continue  # no legal cell: the zombie stays
        v = occ[c]
        if v > 0:
            victim = v - 1
            events.append(Event("death", victim, {"cause": "zombie_bite", "by": None, "cell": state.xy(c)}))
            kill(state, victim)
        occ[z.popleft()] = 0
        z.append(c)
        occ[c] = -2 - j
        if c in state.apples:
            state.apples[state.apples.index(c)] = -1
            events.append(Event("apple_destroyed", None, {"zombie": j, "cell": state.xy(c)}))


def age_apples(state: State, step: Step) -> None:
    """Every apple on the board ages by one step."""
    del step  # nothing of the step is needed
    ages = state.apple_age
    for k, c in enumerate(state.apples):
        if c >= 0:
            ages[k] += 1


STAGES: tuple[Stage, ...] = (respawn, move, collide, eat, zombies, age_apples)
"""The stages of one step, in order; each one's name is its function's ``__name__``."""


def replace_stage(stages: tuple[Stage, ...], name: str, stage: Stage) -> tuple[Stage, ...]:
    """``stages`` with the stage called ``name`` replaced by ``stage`` (a rules variant).

    Raises:
        ValueError: if no stage has that name.
    """
    names = [s.__name__ for s in stages]
    if name not in names:
        raise ValueError(f"no arena stage {name!r}; the stages are {', '.join(names)}")
    return tuple(stage if s.__name__ == name else s for s in stages)
