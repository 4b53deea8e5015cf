"""The errors a ``qaconform`` command stops with: each carries its exit code, so the place that finds a problem
raises it and ``qaconform.commands.cli.main`` alone prints it (``qaconform COMMAND: message``, then the hint on its
own line) and exits with that code, never a traceback.

Before, each command printed its own message and returned its own code in a few dozen hand-written blocks, and a
helper deep in a command had to return a sentinel for its caller to print. Exit codes are the documented ones of
:mod:`qaconform.exitcodes`; ``tests/test_errors.py`` pins each class to its code. Errors of one room (a profile that
cannot be used, a thresholds file, an expectations file...) subclass these, keeping their names for their callers.
The reference server (``qaconform serve``) imports nothing of the package and keeps its own messages.
"""

from __future__ import annotations

from qaconform import exitcodes

__all__ = ["KitError", "ProfileError", "Unreachable", "UsageError"]


class KitError(Exception):
    """A problem the command stops on, with the code it exits with and what to do next.

    Raised as is, it is the kit's own failure (``KIT_ERROR``: a bug, or a part of the kit that is missing); its
    subclasses name what happened instead. ``hint`` is printed on a line of its own after the message.
    """

    exit_code: int = exitcodes.KIT_ERROR

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)  # args stays (message,): the error pickles and prints as before
        self.hint = hint


class UsageError(KitError):
    """A bad option, argument or input file: the command line must change, and nothing was sent."""

    exit_code = exitcodes.USAGE


class ProfileError(UsageError):
    """A profile that cannot be used. The message says which file and key, and what to do.

    The usage code, as a bad profile is part of what the user gives (``exitcodes.MEANINGS``); under plain pytest the
    plugin exits ``exitcodes.PYTEST_BAD_PROFILE`` instead, pytest's own code for input it cannot use.
    """


class Unreachable(KitError):
    """The target did not answer: nothing to judge, and not the target's failure of a rule.

    :class:`qaconform.target.client.TargetUnreachable` (one request that got no answer) is one; a command raises
    this one with its own words (which URL, what to check).
    """

    exit_code = exitcodes.UNREACHABLE
