"""The step load shape; options come from QACONFORM_SHAPE_* (see qaconform.load.shapes). Use it with a profile:
locust -f loadtests/browse.py,loadtests/shapes/step.py (qaconform load --shape step does this)."""

import os

from locust import LoadTestShape

from qaconform.load.shapes import ShapeOptions, tick


class StepShape(LoadTestShape):
    options = ShapeOptions.from_env(os.environ)

    def tick(self) -> tuple[int, float] | None:
        return tick("step", self.options, self.get_run_time())
