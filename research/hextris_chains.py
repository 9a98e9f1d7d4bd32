"""Phrase chains for units that turn: a beam over each unit's whole descent against the greedy speller.

    .venv/bin/python research/hextris_chains.py --problem 24 --units 60 --beam 64

The embedding spells each unit's path greedily (``kernels.embed_unit``: at each placement
the first phrase in a fixed order that fits and keeps the target reachable). This script
spells the same placements of a width-1 plan with a beam over the descent instead: a state
is the placement, the placements held on the current row (the repeat rule), the phrase the
commands so far end with (for overlap continuations) and the points so far; rows are
solved top to bottom, the best ``--beam`` states of a row going on, and every move keeps
the target reachable under the repeat rule (``kernels.allowed_path``). Points are
repetition points only (the bonus of a phrase's first use is left out), so the two
spellers are compared on what the rest of a long game earns per unit. It prints the
points per unit and per row fallen of both, and their ratio.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from snakelab.games.hextris import kernels as kn
from snakelab.games.hextris.codec import load_problem_id
from snakelab.games.hextris.embedding import Tokens
from snakelab.games.hextris.rules import unit_sequence
from snakelab.games.hextris.scoring import PHRASES
from snakelab.games.hextris.solver import CHAMPION_WEIGHTS, CHAMPION_WEIGHTS_BIG, LOST_MAX_CELLS, beam_plan, prepare

State = tuple[int, int, tuple[int, ...], int, tuple[int, ...]]  # points, code, held, last phrase, commands


def _downs(cmds: np.ndarray) -> int:
    return int(sum(1 for c in cmds if c in (2, 3)))


def greedy_points(piece: kn.Piece, spawn: int, target: int, lockcmd: int, tokens: Tokens) -> int:
    """Repetition points of the greedy speller (entries by points per down move)."""
    n_entries = len(tokens.texts)
    rate = [int(tokens.values[i]) / max(_downs(tokens.cmds[i, : tokens.lens[i]]), 1) for i in range(n_entries)]
    order = np.array(sorted(range(n_entries), key=lambda i: -rate[i]), np.int64)
    out = np.empty((20_000, 2), np.int64)
    n = kn.embed_unit(piece, spawn, target, lockcmd, tokens.table, order, out)
    return _points(out[:n, 1], tokens)


def _points(entries: np.ndarray, tokens: Tokens) -> int:
    pts, j = 0, 0
    while j < len(entries):
        p = int(entries[j])
        if p >= 0:
            pts += int(tokens.values[p])
            j += int(tokens.lens[p])
        else:
            j += 1
    return pts


def beam_points(piece: kn.Piece, spawn: int, target: int, lockcmd: int, tokens: Tokens, width: int) -> int:
    """Repetition points of the best chain the beam finds from ``spawn`` to a lock at ``target``."""
    board, dl, size, canon, e = piece
    h, w = board.shape
    nx, ny = w + 2 * e, h + 2 * e
    ns = 6 * nx * ny
    can = kn.reach_to(board, dl, size, canon, target, e)
    stamp = np.zeros(ns, np.int64)
    scratch = (np.zeros(ns, np.int64), np.empty(ns, np.int64), np.empty(ns, np.int64), np.empty(ns, np.int8))
    held_arr = np.empty(ns, np.int64)
    tmp = np.empty(ns, np.int64)
    epoch = [0]
    table = tokens.table
    n_entries = len(tokens.texts)
    tx, ty, tr = kn.decode(target, e, nx, ny)

    def reachable(code: int, held: tuple[int, ...]) -> bool:
        epoch[0] += 1
        for c in held:
            stamp[c] = epoch[0]
        return kn.allowed_path(piece, can, code, target, stamp, epoch[0], scratch) >= 0

    def finish(code: int, held: tuple[int, ...]) -> bool:
        """Whether plain moves along shortest allowed paths lock at the target from here."""
        while code != target:
            cmd = kn.allowed_path(piece, can, code, target, *_marks(held), scratch)
            if cmd < 0:
                return False
            px, py, rot = kn.decode(code, e, nx, ny)
            qx, qy, qr = kn.step(px, py, rot, cmd)
            code = int(kn.encode(qx, qy, int(canon[qr]), e, nx, ny))
            held = (code,) if cmd in (2, 3) else (*held, code)
        return True

    def _marks(held: tuple[int, ...]) -> tuple[np.ndarray, int]:
        epoch[0] += 1
        for c in held:
            stamp[c] = epoch[0]
        return stamp, epoch[0]

    best = -1
    rows: dict[int, dict[tuple[int, tuple[int, ...], int], int]] = {}
    sy = kn.decode(spawn, e, nx, ny)[1]
    rows[sy] = {(spawn, (spawn,), -1): 0}
    for y in range(sy, ty + 1):
        bucket = rows.pop(y, {})
        # Same-row moves add states to this row: expand best first, a bounded number of times.
        done: set[tuple[int, tuple[int, ...], int]] = set()
        for _ in range(50 * width):
            live = [(v, k) for k, v in bucket.items() if k not in done]
            if not live:
                break
            live.sort(key=lambda t: -t[0])
            for _v, k in live[4 * width :]:
                del bucket[k]  # the row keeps its best states, so sideways walks are not starved
            pts, key = live[0]
            code, held, last = key
            if not done and pts > best and finish(code, held):
                best = pts  # the row's best state, finished with plain moves: a floor
            done.add(key)
            for k, c in enumerate(held):
                held_arr[k] = c
            for p in range(n_entries):
                a = int(table.after[p])
                if a >= 0 and a != last:
                    continue
                ln = int(table.lens[p])
                # A phrase whose last command locks at the target.
                lc = int(table.cmds[p, ln - 1])
                qx, qy, qr = kn.step(tx, ty, tr, lc)
                qr = int(canon[qr])
                if ln >= 2 and not ((lc >= 4 and qr == tr) or kn.fits(board, dl, size, qx, qy, qr)):
                    ok, end, _nt = kn.sim_phrase(piece, can, code, held_arr, len(held), table.cmds, ln - 1, p, tmp)
                    if ok and end == target:
                        best = max(best, pts + int(table.values[p]))
                ok, end, nt = kn.sim_phrase(piece, can, code, held_arr, len(held), table.cmds, ln, p, tmp)
                if not ok:
                    continue
                nheld = tuple(int(c) for c in tmp[:nt])
                if not reachable(end, nheld):
                    continue
                ey = kn.decode(end, e, nx, ny)[1]
                nkey = (end, nheld, int(table.done[p]))
                tgt = bucket if ey == y else rows.setdefault(ey, {})
                if tgt.get(nkey, -1) < pts + int(table.values[p]):
                    tgt[nkey] = pts + int(table.values[p])
            px, py, rot = kn.decode(code, e, nx, ny)
            if code == target:
                best = max(best, pts)
            for c in range(6):
                qx, qy, qr = kn.step(px, py, rot, c)
                qr = int(canon[qr])
                if (c >= 4 and qr == rot) or qx < -e or qx >= w + e or qy >= h + e:
                    continue
                nc = int(kn.encode(qx, qy, qr, e, nx, ny))
                if not can[nc] or not kn.fits(board, dl, size, qx, qy, qr):
                    continue
                if c in (2, 3):
                    nheld = (nc,)
                else:
                    if nc in held:
                        continue
                    nheld = (*held, nc)
                if nc != target and not reachable(nc, nheld):
                    continue
                nkey = (nc, nheld, -1)
                tgt = bucket if qy == y else rows.setdefault(qy, {})
                if tgt.get(nkey, -1) < pts:
                    tgt[nkey] = pts
        # Only the best ``width`` states of the next rows survive this row's expansion.
        for yy in list(rows):
            if len(rows[yy]) > 4 * width:
                rows[yy] = dict(sorted(rows[yy].items(), key=lambda t: -t[1])[: 4 * width])
    return best


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--problem", type=int, default=24)
    ap.add_argument("--units", type=int, default=60, help="units of the plan to spell")
    ap.add_argument("--beam", type=int, default=64, help="states kept per row")
    args = ap.parse_args()
    prob = load_problem_id(args.problem)
    prep = prepare(prob)
    seed = prob.source_seeds[0]
    small = prob.width * prob.height <= LOST_MAX_CELLS
    plan = beam_plan(prep, seed, 1, CHAMPION_WEIGHTS if small else CHAMPION_WEIGHTS_BIG)
    seq = unit_sequence(prob, seed)
    tokens = Tokens.build(PHRASES)
    nx, ny = prep.dims
    board = prep.board.copy()
    tot_g = tot_b = rows = turning = 0
    t_g = t_b = 0.0
    for i, (code, lcmd) in enumerate(plan.targets[: args.units]):
        u = seq[i]
        dl, size, canon = prep.dl[u], int(prep.sizes[u]), prep.canon[u]
        piece = kn.Piece(board, dl, size, canon, prep.e)
        spawn = prep.spawn_code(u)
        if int(canon.min()) != int(canon.max()):
            turning += 1
            t0 = time.process_time()
            g = greedy_points(piece, spawn, code, lcmd, tokens)
            t1 = time.process_time()
            b = beam_points(piece, spawn, code, lcmd, tokens, args.beam)
            t_g += t1 - t0
            t_b += time.process_time() - t1
            tot_g += g
            tot_b += max(b, 0)
            rows += kn.decode(code, prep.e, nx, ny)[1] - kn.decode(spawn, prep.e, nx, ny)[1]
        px, py, rot = kn.decode(code, prep.e, nx, ny)
        board, _ls = kn.lock_board(board, dl, size, px, py, rot)
    print(
        f"problem {args.problem}, {turning} turning units of the first {args.units}, {rows} rows fallen: "
        f"greedy {tot_g} points ({tot_g / max(rows, 1):.2f} a row, {t_g:.1f} s), "
        f"beam {args.beam} {tot_b} points ({tot_b / max(rows, 1):.2f} a row, {t_b:.1f} s), "
        f"ratio {tot_b / max(tot_g, 1):.3f}"
    )


if __name__ == "__main__":
    main()
