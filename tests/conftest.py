"""Fixtures shared by all test folders live in ``tests/support/shared_fixtures.py`` (that folder
is on ``sys.path`` through ``pythonpath`` in ``[tool.pytest.ini_options]``)."""

pytest_plugins = ["shared_fixtures"]
