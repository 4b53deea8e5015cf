"""The soak load shape; options come from QACONFORM_SHAPE_* (see qaconform.load.shapes). Use it with a profile:
locust -f loadtests/browse.py,loadtests/shapes/soak.py (qaconform load --shape soak does this)."""

import os

from locust import LoadTestShape

from qaconform.load.shapes import ShapeOptions, tick


class SoakShape(LoadTestShape):
    options = ShapeOptions.from_env(os.environ)

    def tick(self) -> tuple[int, float] | None:
        return tick("soak", self.options, self.get_run_time())
