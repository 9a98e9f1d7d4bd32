"""Reinforcement-learning adapters: Gymnasium and PettingZoo environments over snakelab games.

Importing :mod:`snakelab.adapters.gymnasium` registers the single-player games with
Gymnasium under the ``snakelab/`` namespace (``gymnasium.make("snakelab/Classic-v0")``);
:mod:`snakelab.adapters.pettingzoo` holds the multi-player environments. Both need the
``rl`` extra (``pip install 'snakelab[rl]'``); nothing else in snakelab imports them.
"""
