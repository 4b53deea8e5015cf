"""Exit codes of every qaconform command (documented in the README)."""

OK = 0  # every must-rule held (or the command did what it was asked)
RULE_FAILED = 1  # the target broke at least one rule, or a load threshold was breached
USAGE = 2  # bad command line or bad profile: nothing was sent
UNREACHABLE = 3  # the target did not answer
KIT_ERROR = 4  # the kit itself broke (a bug in qaconform): please report it

PYTEST_UNREACHABLE = 6
"""Under plain pytest, the plugin's code for "the target did not answer": pytest uses 0-5 for its own meanings
(a bad profile is pytest's 4, a usage error); ``qaconform run`` reads the reason from the results file instead."""
