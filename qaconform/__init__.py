"""qaconform: conformance suites and load harness for the Community Q&A Service interface v2."""

__version__ = "0.1.0"
