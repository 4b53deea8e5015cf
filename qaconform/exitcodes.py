"""Exit codes of every qaconform command and of the suites under plain pytest, with what each means: one table,
which ``qaconform --help`` prints and the README documents."""

OK = 0
RULE_FAILED = 1
USAGE = 2
UNREACHABLE = 3
KIT_ERROR = 4
CANNOT_JUDGE = 5  # qaconform capacity: the noise, the machine or the budget left no verdict
INTERRUPTED = 130  # the shell's code for a process ended by SIGINT

MEANINGS: tuple[tuple[int, str], ...] = (
    (OK, "every must-rule held (or the command did what it was asked)"),
    (RULE_FAILED, "the target broke at least one rule, or a load threshold was breached"),
    (USAGE, "bad command line or bad profile: nothing was sent"),
    (UNREACHABLE, "the target did not answer"),
    (KIT_ERROR, "the kit itself broke (a bug in qaconform): please report it"),
    (CANNOT_JUDGE, "qaconform capacity could not judge (comparing two builds: the noise band, or the machine; a "
                   "search: its budget ran out before any rate held, inconclusive): the reason is printed"),
    (INTERRUPTED, "interrupted (Ctrl-C); what finished is reported"),
)
"""What ``qaconform COMMAND`` exits with."""

PYTEST_BAD_PROFILE = 4
"""Under plain pytest, a broken profile or a refused credential: pytest's own code for input it cannot use
(``pytest.ExitCode.USAGE_ERROR``; nothing was sent)."""
PYTEST_UNREACHABLE = 6
"""Under plain pytest, the plugin's code for "the target did not answer": pytest uses 0-5 for its own meanings, so
the kit's own, outside them; ``qaconform run`` reads the reason from the results file instead."""
