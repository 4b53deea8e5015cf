"""The embedded reference server: an independent implementation of interface v2 (Starlette + SQLite).

It imports nothing from spec/, suites/, qaconform.contract or qaconform.client (architecture rule 2).
"""

from .server import ReferenceServer, ReferenceServerError

__all__ = ["ReferenceServer", "ReferenceServerError"]
