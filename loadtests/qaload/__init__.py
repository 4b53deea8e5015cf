"""Code the locustfiles in loadtests/ share: settings from the environment, the checked base user, the task
sets of each role, and the event hooks (sub-millisecond histogram, created ids, pacing).

Imported only inside Locust processes (it imports locust and gevent); the parts worth testing without Locust
are plain functions in ``qaconform.load`` (checks, histogram, pacing, shapes).
"""
