"""Settings for the whole suite.

Hypothesis's default 200 ms deadline per example measures the machine, not the code: on a
loaded 2-core machine a healthy example can take longer, and a test that fails for that
is flaky. Tests assert on behaviour, never on time (the linear-time tests compare two
timings of the same run instead), so the deadline is off everywhere.
"""

from hypothesis import settings

settings.register_profile("icswire", deadline=None)
settings.load_profile("icswire")
