"""Deprecated alias of :mod:`qaconform.pytest.plugin` (moved in 0.2.0; this alias goes in the next release).

``-p qaconform.pytest_plugin`` and ``import qaconform.pytest_plugin`` keep working: the name is bound to the
plugin module itself, so pytest never registers the same hooks twice under two names.
"""

import sys
import warnings

from qaconform.pytest import plugin as _plugin

warnings.warn("qaconform.pytest_plugin moved to qaconform.pytest.plugin; the old name goes in the next release",
              DeprecationWarning, stacklevel=2)
sys.modules[__name__] = _plugin
