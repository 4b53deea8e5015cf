"""The ramp load shape; options come from QACONFORM_SHAPE_* (see qaconform.load.shapes). Use it with a profile:
locust -f loadtests/browse.py,loadtests/shapes/ramp.py (qaconform load --shape ramp does this)."""

import os

from locust import LoadTestShape

from qaconform.load.shapes import ShapeOptions, tick


class RampShape(LoadTestShape):
    options = ShapeOptions.from_env(os.environ)

    def tick(self) -> tuple[int, float] | None:
        return tick("ramp", self.options, self.get_run_time())
