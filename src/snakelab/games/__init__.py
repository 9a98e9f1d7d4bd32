"""The games. Each subpackage registers itself with :mod:`snakelab.core.registry` on import."""
